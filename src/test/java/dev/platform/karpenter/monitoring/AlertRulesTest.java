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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
        }
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("rule_files", List.of("rules.yaml"));
        file.put("evaluation_interval", "1m");
        file.put("tests", tests);
        Files.writeString(dir.resolve("tests.yaml"), YAML.writeValueAsString(file));

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

    /** Only v1.8's page is known to miss metrics; every other release's rules use what its page lists. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void onlyReleasesWhosePageMissesMetricsUseCodeCheckedNames(KarpenterRelease release) {
        ReleaseMetrics metrics = ReleaseMetrics.of(release);
        for (PromQl.Parsed parsed : parsed(release)) {
            for (String metric : parsed.metrics()) {
                String base = metric.replaceAll("_(bucket|sum|count)$", "");
                if (!metrics.documents(base)) {
                    assertThat(metrics.codeChecked()).as(release + " " + base).contains(base);
                    assertThat(ReleaseMetrics.minorDir(release)).isEqualTo("1.8");
                }
            }
        }
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
            Map<String, String> labels) {}

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
                        List.of(series(m.podState() + "{name=\"web-1\", phase=\"Pending\"}", "1+0x30")),
                        List.of(
                                series(
                                        m.podState() + "{name=\"web-1\", phase=\"Pending\", node=\"ip-10-0-0-1\"}",
                                        "1+0x30"),
                                series(
                                        m.podState() + "{name=\"web-2\", phase=\"Running\", node=\"ip-10-0-0-1\"}",
                                        "1+0x30"),
                                series(m.podState() + "{name=\"web-3\", phase=\"Pending\"}", "1+0x5 _x25")),
                        "25m",
                        Map.of("name", "web-1"));
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
                        Map.of("method", "Create", "error", "InsufficientCapacityError"));
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
