package dev.platform.karpenter.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.platform.karpenter.monitoring.AlertRules.Alert;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.ReleaseMetrics;
import dev.platform.karpenter.testing.Docs;
import dev.platform.karpenter.testing.PromQl;
import dev.platform.karpenter.testing.Promtool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The alert rules of every release, checked by Prometheus itself: {@code promtool check rules} accepts them, and
 * {@code promtool test rules} shows each alert firing on series that show its fault and silent on healthy series,
 * written in that release's own metric names.
 */
class AlertRulesTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Every release's rule expressions as the grammar reads them, in one Node.js start. */
    private static Map<KarpenterRelease, List<PromQl.Parsed>> parsed;

    private static synchronized List<PromQl.Parsed> parsed(KarpenterRelease release) {
        if (parsed == null) {
            List<KarpenterRelease> all = releases().toList();
            List<String> expressions = new ArrayList<>();
            all.forEach(r -> AlertRules.of(r).forEach(alert -> expressions.add(alert.expr())));
            List<PromQl.Parsed> results = PromQl.parse(expressions);
            Map<KarpenterRelease, List<PromQl.Parsed>> byRelease = new LinkedHashMap<>();
            int next = 0;
            for (KarpenterRelease r : all) {
                int count = AlertRules.of(r).size();
                byRelease.put(r, results.subList(next, next + count));
                next += count;
            }
            parsed = byRelease;
        }
        return parsed.get(release);
    }

    static Stream<KarpenterRelease> releases() {
        return KarpenterMinor.all().stream().map(KarpenterMinor::newestRelease);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void promtoolAcceptsTheRules(KarpenterRelease release, @TempDir Path dir) throws IOException {
        Promtool promtool = Promtool.require();
        Files.writeString(dir.resolve("rules.yaml"), AlertRules.rulesFile(release));

        Promtool.Result result = promtool.run(dir, "check", "rules", "rules.yaml");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output())
                .contains("SUCCESS: " + AlertRules.of(release).size() + " rules found");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void everyAlertFiresOnItsFaultAndStaysSilentOnHealthySeries(KarpenterRelease release, @TempDir Path dir)
            throws IOException {
        Promtool promtool = Promtool.require();
        Files.writeString(dir.resolve("rules.yaml"), AlertRules.rulesFile(release));
        List<Map<String, Object>> tests = new ArrayList<>();
        for (Alert alert : AlertRules.of(release)) {
            Scenario scenario = scenario(alert, ReleaseMetrics.of(release));
            tests.add(test(alert, scenario.faulty(), scenario.evalTime(), List.of(expected(alert, scenario.labels()))));
            tests.add(test(alert, scenario.healthy(), scenario.evalTime(), List.of()));
            for (List<Map<String, String>> alsoHealthy : scenario.alsoHealthy()) {
                tests.add(test(alert, alsoHealthy, scenario.evalTime(), List.of()));
            }
        }
        Files.writeString(dir.resolve("tests.yaml"), testsFile(tests));

        Promtool.Result result = promtool.run(dir, "test", "rules", "tests.yaml");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    /** A healthy series that differs from the faulty one only in what the alert is about fires nothing. */
    @Test
    void theFaultySeriesDifferFromTheHealthyOnesForEveryAlert() {
        releases()
                .forEach(release -> AlertRules.of(release).forEach(alert -> {
                    Scenario scenario = scenario(alert, ReleaseMetrics.of(release));
                    assertThat(scenario.healthy()).as(alert.name()).isNotEqualTo(scenario.faulty());
                }));
    }

    /** Independently of the rules' code: the grammar's reading of each expression names only exported metrics. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void everyMetricARuleReadsIsOneTheReleaseExports(KarpenterRelease release) {
        ReleaseMetrics metrics = ReleaseMetrics.of(release);

        for (PromQl.Parsed parsed : parsed(release)) {
            assertThat(parsed.errors()).as(parsed.expression()).isEmpty();
            assertThat(parsed.metrics()).as(parsed.expression()).isNotEmpty();
            for (String metric : parsed.metrics()) {
                String base = metric.replaceAll("_(bucket|sum|count)$", "");
                assertThat(metrics.exports(metric) || metrics.exports(base))
                        .as(release + ": " + metric + " in " + parsed.expression())
                        .isTrue();
            }
        }
    }

    /**
     * The pages of 0.36 (a stale price metric), 1.0 (the 0.37 names) and 1.8 (22 metrics) are wrong, and those
     * releases' names were checked in code: every metric their rules read is one the check found registered. Every
     * other release's rules read only what its page lists.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void releasesWhosePageIsWrongReadOnlyCodeCheckedNamesAndTheOthersOnlyDocumentedOnes(KarpenterRelease release) {
        ReleaseMetrics metrics = ReleaseMetrics.of(release);
        boolean handChecked = CODE_CHECKED_MINORS.contains(ReleaseMetrics.minorDir(release));
        assertThat(metrics.codeChecked().isEmpty()).as(release.toString()).isEqualTo(!handChecked);
        for (PromQl.Parsed parsed : parsed(release)) {
            for (String metric : parsed.metrics()) {
                String base = metric.replaceAll("_(bucket|sum|count)$", "");
                assertThat(handChecked ? metrics.codeChecked() : metrics.documented())
                        .as(release + " " + base)
                        .contains(base);
            }
        }
    }

    /** Each hand check names its tag and commit, as release.properties does, and a repository and file per name. */
    @Test
    void eachHandCheckNamesTheReleasesTagAndCommitAndWhereEachNameIsRegistered() throws IOException {
        for (String minor : CODE_CHECKED_MINORS) {
            String dir = "/dev/platform/karpenter/release/releases/" + minor + "/";
            Properties release = new Properties();
            try (var in = AlertRulesTest.class.getResourceAsStream(dir + "release.properties")) {
                release.load(in);
            }
            String facts;
            try (var in = AlertRulesTest.class.getResourceAsStream(dir + ReleaseMetrics.CODE_CHECKED)) {
                facts = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String header = facts.lines()
                    .takeWhile(line -> line.startsWith("#"))
                    .reduce("", (a, b) -> a + " " + b.substring(1).trim());
            assertThat(header)
                    .as(minor)
                    .contains(release.getProperty("tag") + " (" + release.getProperty("commit") + ")")
                    .contains("sigs.k8s.io/karpenter v");
            facts.lines()
                    .filter(line -> !line.startsWith("#"))
                    .forEach(
                            line -> assertThat(line)
                                    .as(minor)
                                    .matches(
                                            "!?karpenter_[a-z_]+ (aws/karpenter-provider-aws|kubernetes-sigs/karpenter) pkg/[a-z/]+\\.go"));
        }
    }

    /**
     * Independently of ReleaseMetrics: each alert of 1.0 fires on its fault written in the names 1.0's code registers
     * (sigs.k8s.io/karpenter v1.0.9 and aws/karpenter-provider-aws v1.0.14; releases/1.0/metrics-code-checked.txt).
     */
    @Test
    void theAlertsOfOneDotZeroFireOnFaultsInTheNamesItsCodeRegisters(@TempDir Path dir) throws IOException {
        Promtool promtool = Promtool.require();
        KarpenterRelease release = KarpenterRelease.of("1.0.0");
        Files.writeString(dir.resolve("rules.yaml"), AlertRules.rulesFile(release));
        Map<String, List<Map<String, String>>> faults = new LinkedHashMap<>();
        faults.put(
                "KarpenterNodeClaimsNotRegistering",
                List.of(
                        series("karpenter_nodeclaims_created_total{nodepool=\"default\"}", "0+1x60"),
                        series("karpenter_nodes_created_total{nodepool=\"default\"}", "3+0x60")));
        faults.put(
                "KarpenterNodePoolNearLimit",
                List.of(
                        series("karpenter_nodepools_usage{nodepool=\"default\", resource_type=\"cpu\"}", "95+0x60"),
                        series("karpenter_nodepools_limit{nodepool=\"default\", resource_type=\"cpu\"}", "100+0x60")));
        faults.put(
                "KarpenterInterruptionMessagesDelayed",
                List.of(
                        series("karpenter_interruption_message_queue_duration_seconds_bucket{le=\"30\"}", "0+0x60"),
                        series("karpenter_interruption_message_queue_duration_seconds_bucket{le=\"120\"}", "0+10x60"),
                        series(
                                "karpenter_interruption_message_queue_duration_seconds_bucket{le=\"+Inf\"}",
                                "0+10x60")));
        faults.put(
                "KarpenterDriftedNodesWaiting",
                List.of(series("karpenter_voluntary_disruption_eligible_nodes{reason=\"drifted\"}", "2+0x480")));
        faults.put(
                "KarpenterCloudProviderErrors",
                List.of(series(
                        "karpenter_cloudprovider_errors_total{method=\"Create\", error=\"InsufficientCapacityError\"}",
                        "0+2x60")));
        faults.put(
                "KarpenterPodsPendingForCapacity",
                List.of(series(
                        "karpenter_pods_state{namespace=\"shop\", name=\"web-1\", phase=\"Pending\"}", "1+0x60")));
        Map<String, Map<String, String>> labels = Map.of(
                "KarpenterNodePoolNearLimit", Map.of("nodepool", "default", "resource_type", "cpu"),
                "KarpenterCloudProviderErrors", Map.of("method", "Create", "error", "InsufficientCapacityError"),
                "KarpenterPodsPendingForCapacity", Map.of("namespace", "shop", "name", "web-1"));
        List<Map<String, Object>> tests = new ArrayList<>();
        for (Alert alert : AlertRules.of(release)) {
            if (faults.containsKey(alert.name())) {
                String evalTime = alert.name().equals("KarpenterDriftedNodesWaiting") ? "7h" : "50m";
                tests.add(test(
                        alert,
                        faults.get(alert.name()),
                        evalTime,
                        List.of(expected(alert, labels.getOrDefault(alert.name(), Map.of())))));
            }
        }
        assertThat(tests).hasSize(faults.size());
        Files.writeString(dir.resolve("tests.yaml"), testsFile(tests));

        Promtool.Result result = promtool.run(dir, "test", "rules", "tests.yaml");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    private static final List<String> CODE_CHECKED_MINORS = List.of("0.36", "1.0", "1.8");

    private static String testsFile(List<Map<String, Object>> tests) throws IOException {
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("rule_files", List.of("rules.yaml"));
        file.put("evaluation_interval", "1m");
        file.put("tests", tests);
        return YAML.writeValueAsString(file);
    }

    @Test
    void everyAlertHasARunbookSection() {
        String guide = Docs.page(AlertRules.RUNBOOKS);
        for (Alert alert : AlertRules.of(KarpenterRelease.newest())) {
            assertThat(guide).as(alert.name()).contains("### " + alert.name() + "\n");
            assertThat(alert.summary()).isNotBlank();
            assertThat(alert.description()).isNotBlank();
        }
    }

    @Test
    void theGuidesTableNamesEveryMetricTheRulesUse() {
        String guide = Docs.page(AlertRules.RUNBOOKS);
        releases()
                .forEach(release -> PromQl.parse(
                                AlertRules.of(release).stream().map(Alert::expr).toList())
                        .forEach(parsed -> parsed.metrics()
                                .forEach(metric -> assertThat(guide)
                                        .as(release + " " + metric)
                                        .containsPattern("`" + metric.replaceAll("_bucket$", "") + "[`{]"))));
    }

    @Test
    void rulesFileNamesTheReleaseAndHoldsOneGroup() throws IOException {
        KarpenterRelease release = KarpenterRelease.newest();
        var document = YAML.readTree(AlertRules.rulesFile(release));

        assertThat(AlertRules.rulesFile(release)).startsWith("# Karpenter " + release.chartVersion());
        assertThat(document.path("groups")).hasSize(1);
        assertThat(document.at("/groups/0/rules/0/annotations/runbook").asText())
                .isEqualTo("docs/guides/alerts.md#karpentermetricsabsent");
    }

    /** Series of one alert's fault and of health, the time to evaluate, and the labels the firing alert has. */
    record Scenario(
            List<Map<String, String>> faulty,
            List<Map<String, String>> healthy,
            String evalTime,
            Map<String, String> labels,
            List<List<Map<String, String>>> alsoHealthy) {
        Scenario(
                List<Map<String, String>> faulty,
                List<Map<String, String>> healthy,
                String evalTime,
                Map<String, String> labels) {
            this(faulty, healthy, evalTime, labels, List.of());
        }
    }

    private static Scenario scenario(Alert alert, ReleaseMetrics m) {
        return switch (alert.name()) {
            case "KarpenterMetricsAbsent" ->
                new Scenario(
                        List.of(series("up{job=\"karpenter\"}", "0+0x30")),
                        List.of(series(m.liveness() + "{version=\"test\"}", "1+0x30")),
                        "20m",
                        Map.of());
            case "KarpenterPodsPendingForCapacity" ->
                new Scenario(
                        // node="" is no label at all, as Prometheus stores it.
                        List.of(series(
                                m.podState() + "{namespace=\"shop\", name=\"web-1\", phase=\"Pending\"}", "1+0x30")),
                        List.of(
                                series(
                                        m.podState() + "{name=\"web-1\", phase=\"Pending\", node=\"ip-10-0-0-1\"}",
                                        "1+0x30"),
                                series(
                                        m.podState() + "{name=\"web-2\", phase=\"Running\", node=\"ip-10-0-0-1\"}",
                                        "1+0x30"),
                                series(m.podState() + "{name=\"web-3\", phase=\"Pending\"}", "1+0x5 _x25")),
                        "25m",
                        Map.of("namespace", "shop", "name", "web-1"));
            case "KarpenterNodeClaimsNotRegistering" ->
                new Scenario(
                        List.of(
                                series(m.claimsCreated() + "{nodepool=\"default\"}", "0+1x60"),
                                series(m.nodesCreated() + "{nodepool=\"default\"}", "3+0x60")),
                        List.of(
                                series(m.claimsCreated() + "{nodepool=\"default\"}", "0+1x60"),
                                series(m.nodesCreated() + "{nodepool=\"default\"}", "3+1x60")),
                        "55m",
                        Map.of());
            case "KarpenterNodePoolNearLimit" ->
                new Scenario(
                        List.of(
                                series(
                                        m.poolUsage() + "{" + m.poolLabel() + "=\"default\", resource_type=\"cpu\"}",
                                        "95+0x30"),
                                series(
                                        m.poolLimit() + "{" + m.poolLabel() + "=\"default\", resource_type=\"cpu\"}",
                                        "100+0x30")),
                        List.of(
                                series(
                                        m.poolUsage() + "{" + m.poolLabel() + "=\"default\", resource_type=\"cpu\"}",
                                        "50+0x30"),
                                series(
                                        m.poolLimit() + "{" + m.poolLabel() + "=\"default\", resource_type=\"cpu\"}",
                                        "100+0x30")),
                        "25m",
                        Map.of(m.poolLabel(), "default", "resource_type", "cpu"));
            case "KarpenterCloudProviderErrors" ->
                new Scenario(
                        List.of(series(
                                m.cloudProviderErrors() + "{controller=\"provisioner\", method=\"Create\","
                                        + " provider=\"aws\", error=\"InsufficientCapacityError\"}",
                                "0+2x60")),
                        List.of(series(
                                m.cloudProviderErrors() + "{controller=\"provisioner\", method=\"Create\","
                                        + " provider=\"aws\", error=\"InsufficientCapacityError\"}",
                                "0+0.25x60")),
                        "45m",
                        Map.of("method", "Create", "error", "InsufficientCapacityError"),
                        // Terminations: Delete until the instance is gone, at any rate, are no fault.
                        List.of(List.of(series(
                                m.cloudProviderErrors() + "{controller=\"node.termination\", method=\"Delete\","
                                        + " provider=\"aws\", error=\"" + m.notFoundError() + "\"}",
                                "0+5x60"))));
            case "KarpenterInterruptionMessagesDelayed" ->
                new Scenario(
                        List.of(
                                series(m.interruptionMessageAge() + "_bucket{le=\"30\"}", "0+0x40"),
                                series(m.interruptionMessageAge() + "_bucket{le=\"120\"}", "0+10x40"),
                                series(m.interruptionMessageAge() + "_bucket{le=\"+Inf\"}", "0+10x40")),
                        List.of(
                                series(m.interruptionMessageAge() + "_bucket{le=\"30\"}", "0+10x40"),
                                series(m.interruptionMessageAge() + "_bucket{le=\"120\"}", "0+10x40"),
                                series(m.interruptionMessageAge() + "_bucket{le=\"+Inf\"}", "0+10x40")),
                        "30m",
                        Map.of());
            case "KarpenterDriftedNodesWaiting" ->
                new Scenario(
                        List.of(series(m.disruptionEligible() + "{" + m.driftSelector() + "}", "2+0x420")),
                        List.of(
                                series(m.disruptionEligible() + "{" + m.driftSelector() + "}", "0+0x420"),
                                series(
                                        m.disruptionEligible() + "{"
                                                + m.driftSelector().replaceAll("\"[a-z]+\"", "\"underutilized\"") + "}",
                                        "3+0x420")),
                        "7h",
                        Map.of());
            default -> throw new AssertionError("no scenario for " + alert.name() + ": add one");
        };
    }

    private static Map<String, String> series(String series, String values) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("series", series);
        map.put("values", values);
        return map;
    }

    private static Map<String, Object> test(
            Alert alert, List<Map<String, String>> series, String evalTime, List<Map<String, Object>> expected) {
        Map<String, Object> test = new LinkedHashMap<>();
        test.put("interval", "1m");
        test.put("input_series", series);
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("eval_time", evalTime);
        check.put("alertname", alert.name());
        check.put("exp_alerts", expected);
        test.put("alert_rule_test", List.of(check));
        return test;
    }

    /** The firing alert: its labels and its annotations with the templates expanded as Prometheus does here. */
    private static Map<String, Object> expected(Alert alert, Map<String, String> labels) {
        Map<String, String> expLabels = new LinkedHashMap<>(labels);
        expLabels.put("severity", alert.severity());
        String summary = alert.summary().replace("{{ $value | humanizePercentage }}", "95%");
        for (Map.Entry<String, String> label : labels.entrySet()) {
            summary = summary.replace("{{ $labels." + label.getKey() + " }}", label.getValue());
        }
        assertThat(summary)
                .as("every template of " + alert.name() + " expanded")
                .doesNotContain("{{");
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("summary", summary);
        annotations.put("description", alert.description());
        annotations.put("runbook", AlertRules.RUNBOOKS + "#" + alert.name().toLowerCase(Locale.ROOT));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("exp_labels", expLabels);
        expected.put("exp_annotations", annotations);
        return expected;
    }
}
