package dev.platform.karpenter.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.schema.ChartValuesSchema.Kind;
import dev.platform.karpenter.schema.ChartValuesSchema.Value;
import dev.platform.karpenter.schema.ChartValuesSchema.Violation;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The chart values each minor ships as facts, how they are derived from a values.yaml, and how a values tree is judged. */
@KernelOnlyThroughSynthesized
class ChartValuesSchemaTest {
    private static final Pattern VALUES_READ = Pattern.compile("\\.Values((?:\\.[A-Za-z0-9_]+)+)");

    /**
     * Keys a chart's templates read that its values.yaml does not declare: kept by upstream for values files of
     * older releases. Validation refuses them, as the chart's documentation does not offer them.
     */
    private static final Map<String, Set<String>> READ_BUT_UNDECLARED = Map.of(
            "v0.32.10",
            Set.of(
                    "controller.errorOutputPaths",
                    "controller.logLevel",
                    "controller.outputPaths",
                    "logEncoding",
                    "settings.featureGates.driftEnabled",
                    "webhook.logLevel"));

    private static ChartValuesSchema newest() {
        return ChartValuesSchema.of(KarpenterRelease.newest());
    }

    /** One release of every supported minor. */
    static Stream<KarpenterRelease> everyMinor() {
        return KarpenterMinor.all().stream().map(KarpenterMinor::firstRelease);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyMinor")
    void everySupportedMinorShipsAValuesYamlThatCompilesOnceAndKeepsTheAppsOwnKeys(KarpenterRelease release) {
        ChartValuesSchema schema = ChartValuesSchema.of(release);

        assertThat(ChartValuesSchema.of(new KarpenterRelease(release.major(), release.minor(), 99)))
                .isSameAs(schema);
        assertThat(schema.values()).hasSizeGreaterThan(50);
        // The keys the app writes for this generation exist, or the app's own values would be refused.
        var keys = release.valueKeys();
        assertThat(Stream.of(keys.clusterName(), keys.clusterEndpoint(), keys.interruptionQueue()))
                .allSatisfy(path -> assertThat(schema.takes(path.segments()))
                        .as(path.toString())
                        .isTrue());
    }

    @Test
    void theNewestChartHas79ValuesAsItsDocumentationListsThem() {
        List<Value> values = newest().values();

        assertThat(values).hasSize(79);
        assertThat(values.stream().filter(v -> v.kind() == Kind.OPEN_OBJECT).map(v -> String.join(".", v.path())))
                .containsExactly(
                        "additionalLabels",
                        "additionalAnnotations",
                        "service.annotations",
                        "serviceAccount.annotations",
                        "serviceMonitor.additionalLabels",
                        "serviceMonitor.endpointConfig",
                        "strategy",
                        "podLabels",
                        "podAnnotations",
                        "podSecurityContext",
                        "dnsConfig",
                        "nodeSelector",
                        "affinity",
                        "controller.securityContext.appArmorProfile",
                        "controller.securityContext.seLinuxOptions",
                        "controller.securityContext.seccompProfile",
                        "controller.resources");
        assertThat(values)
                .contains(
                        new Value(List.of("replicas"), Kind.INTEGER, "2"),
                        new Value(List.of("logLevel"), Kind.STRING, "info"),
                        new Value(List.of("settings", "vmMemoryOverheadPercent"), Kind.NUMBER, "0.075"),
                        new Value(
                                List.of("settings", "featureGates", "spotToSpotConsolidation"), Kind.BOOLEAN, "false"),
                        new Value(List.of("terminationGracePeriodSeconds"), Kind.ANY, null),
                        new Value(List.of("tolerations"), Kind.LIST, null),
                        new Value(List.of("initContainers"), Kind.LIST, null),
                        new Value(List.of("podDisruptionBudget", "maxUnavailable"), Kind.INTEGER_OR_STRING, null));
    }

    /** The test charts' tags: their templates say which keys each chart really reads. */
    static List<String> chartTags() {
        return UpstreamCharts.SUPPORTED;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chartTags")
    @NeedsUpstreamMirror
    void everyKeyTheChartsTemplatesReadIsTakenSaveUpstreamsUndeclaredLeftovers(String tag) {
        ChartValuesSchema schema = ChartValuesSchema.of(KarpenterRelease.of(tag));
        Set<String> refused = new TreeSet<>();
        for (String path : valuesReadByTemplates(tag)) {
            if (!schema.takes(Arrays.asList(path.split("\\.")))) {
                refused.add(path);
            }
        }
        assertThat(refused).isEqualTo(READ_BUT_UNDECLARED.getOrDefault(tag, Set.of()));
    }

    private static Set<String> valuesReadByTemplates(String tag) {
        Set<String> paths = new TreeSet<>();
        try (Stream<Path> files = Files.list(
                UpstreamCharts.chart(tag, UpstreamCharts.CONTROLLER_CHART).resolve("templates"))) {
            for (Path file : files.toList()) {
                Matcher m = VALUES_READ.matcher(Files.readString(file));
                while (m.find()) {
                    paths.add(m.group(1).substring(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return paths;
    }

    @Test
    void openMapsTakeAnyKeyAndNullsAreAlwaysTaken() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("podAnnotations", Map.of("prometheus.io/scrape", "true"));
        values.put("affinity", Map.of("nodeAffinity", Map.of("anything", List.of(1L))));
        values.put("nodeSelector", null);
        values.put("terminationGracePeriodSeconds", 300L);
        values.put("podDisruptionBudget", Map.of("maxUnavailable", "50%"));
        values.put("initContainers", List.of(Map.of("name", "wait")));
        values.put("settings", Map.of("vmMemoryOverheadPercent", 0.1, "reservedENIs", "1"));

        assertThat(newest().check(values)).isEmpty();
        assertThat(newest().takes(List.of("serviceAccount", "annotations", "eks.amazonaws.com/role-arn")))
                .isTrue();
        assertThat(newest().takes(List.of("settings", "aws", "clusterName"))).isFalse();
    }

    @Test
    void anUnknownKeyNamesTheNearestSiblingOrWhereThatKeyLives() {
        assertThat(violation(Map.of("settings", Map.of("featureGates", Map.of("spotToSpotConsolidaton", true)))))
                .contains(new Violation(
                        "settings.featureGates.spotToSpotConsolidaton",
                        "unknown key; did you mean spotToSpotConsolidation?"));
        assertThat(violation(Map.of("LogLevel", "debug")))
                .contains(new Violation("LogLevel", "unknown key; did you mean logLevel?"));
        assertThat(violation(Map.of("featureGates", Map.of())))
                .contains(new Violation("featureGates", "unknown key; did you mean settings.featureGates?"));
        assertThat(violation(Map.of("controller", Map.of("image", Map.of("registry", "x")))))
                .contains(new Violation("controller.image.registry", "unknown key; did you mean repository?"));
    }

    @Test
    void aValueOfTheWrongKindIsRefusedWhereTheDefaultHasAKind() {
        assertThat(violation(Map.of("replicas", "3")))
                .contains(new Violation("replicas", "must be a whole number (the chart's default is 2), got a string"));
        assertThat(violation(Map.of("replicas", 2.5)))
                .contains(new Violation("replicas", "must be a whole number (the chart's default is 2), got 2.5"));
        assertThat(violation(Map.of("logLevel", true)))
                .contains(new Violation("logLevel", "must be a string (the chart's default is \"info\"), got true"));
        assertThat(violation(Map.of("settings", Map.of("featureGates", Map.of("nodeRepair", "yes")))))
                .contains(new Violation(
                        "settings.featureGates.nodeRepair",
                        "must be true or false (the chart's default is false), got a string"));
        assertThat(violation(Map.of("tolerations", Map.of("key", "x"))))
                .contains(new Violation("tolerations", "must be a list, got an object"));
        assertThat(violation(Map.of("podAnnotations", List.of("x"))))
                .contains(new Violation("podAnnotations", "must be an object, got a list"));
        assertThat(violation(Map.of("settings", "x")))
                .contains(new Violation("settings", "must be an object, got a string"));
        // A long default (the image digest) is not repeated.
        assertThat(violation(Map.of("controller", Map.of("image", Map.of("digest", 1L)))))
                .contains(new Violation("controller.image.digest", "must be a string, got 1"));
    }

    @Test
    void pathsQuoteKeysThatAreNotPlainNamesAndIndexLists() {
        assertThat(ChartValuesSchema.display(List.of("serviceAccount", "annotations", "eks.amazonaws.com/role-arn")))
                .isEqualTo("serviceAccount.annotations.\"eks.amazonaws.com/role-arn\"");
        assertThat(ChartValuesSchema.display(List.of("tolerations", 0, "key"))).isEqualTo("tolerations[0].key");
        assertThat(ChartValuesSchema.display(List.of("a\"b"))).isEqualTo("\"a\\\"b\"");
    }

    @Test
    void aMapDocumentedAsAWholeIsOpenAndOneWithDocumentedKeysIsNot() {
        ChartValuesSchema schema = ChartValuesSchema.parse(new StringReader("""
                # -- Documented as a whole.
                whole:
                  a: 1
                partly:
                  # -- A documented key.
                  b: x
                  c: 2
                plain:
                  d: true
                """), "0.0.0");

        assertThat(schema.values())
                .containsExactly(
                        new Value(List.of("whole"), Kind.OPEN_OBJECT, null),
                        new Value(List.of("partly", "b"), Kind.STRING, "x"),
                        new Value(List.of("partly", "c"), Kind.INTEGER, "2"),
                        new Value(List.of("plain", "d"), Kind.BOOLEAN, "true"));
    }

    private static Optional<Violation> violation(Map<String, ?> values) {
        return newest().check(values);
    }
}
