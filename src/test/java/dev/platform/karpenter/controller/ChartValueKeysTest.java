package dev.platform.karpenter.controller;

import static dev.platform.karpenter.controller.ControllerFixtures.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.release.HelmValueKeys;
import dev.platform.karpenter.release.ValuePath;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every key path the controller stack writes exists in the values.yaml of the chart version it installs, so a
 * key of the wrong generation (the silent failure of settings.aws.* on a 1.x chart) cannot ship. The keys are read from
 * the upstream charts' values.yaml in the upstream mirror.
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class ChartValueKeysTest {
    @RegisterExtension
    static final Synthesized V0 = ControllerFixtures.v0();

    @RegisterExtension
    static final Synthesized V1 = ControllerFixtures.v1();

    /** The keys every generation writes beside its settings: service account, replicas, resources, placement. */
    static final List<String> SHARED_KEYS = List.of(
            "serviceAccount.name",
            "serviceAccount.annotations",
            "replicas",
            "controller.resources",
            "tolerations",
            "affinity");

    /** {@code settingsKeys} followed by {@link #SHARED_KEYS}. */
    static List<String> withSharedKeys(String... settingsKeys) {
        List<String> keys = new ArrayList<>(List.of(settingsKeys));
        keys.addAll(SHARED_KEYS);
        return keys;
    }

    static List<Arguments> generations() {
        return List.of(
                Arguments.of(
                        "v0.30.0",
                        V0,
                        withSharedKeys(
                                "settings.aws.clusterName",
                                "settings.aws.clusterEndpoint",
                                "settings.aws.interruptionQueueName",
                                "settings.aws.defaultInstanceProfile")),
                Arguments.of(
                        UpstreamCharts.NEWEST,
                        V1,
                        withSharedKeys(
                                "settings.clusterName", "settings.clusterEndpoint", "settings.interruptionQueue")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("generations")
    void everyKeyWrittenExistsInTheChartItInstalls(String chartVersion, Synthesized app, List<String> expectedKeys) {
        Set<String> chartKeys = chartKeys(chartVersion);
        List<String> written = writtenKeys(values(app), chartKeys);

        assertThat(chartKeys).containsAll(written);
        assertThat(written).containsExactlyInAnyOrderElementsOf(expectedKeys);
    }

    @Test
    void theGenerationsKeysAreNotInterchangeable() {
        assertThat(chartKeys(UpstreamCharts.NEWEST))
                .doesNotContain(
                        "settings.aws.clusterName",
                        "settings.aws.interruptionQueueName",
                        "settings.aws.defaultInstanceProfile");
        assertThat(chartKeys("v0.30.0")).doesNotContain("settings.clusterName", "settings.interruptionQueue");
    }

    /**
     * The key paths of a values tree down to where the chart's own structure ends: a scalar, a list, an open map
     * ({} in the chart, like serviceAccount.annotations) or a Kubernetes object handed over whole (affinity, whose
     * chart default is an example of an Affinity, not a list of allowed keys).
     */
    private static List<String> writtenKeys(JsonNode values, Set<String> chartKeys) {
        List<String> keys = new ArrayList<>();
        collect(values, null, chartKeys, keys);
        return keys;
    }

    private static void collect(JsonNode node, ValuePath path, Set<String> chartKeys, List<String> keys) {
        node.fields().forEachRemaining(field -> {
            ValuePath child = path == null ? ValuePath.of(field.getKey()) : path.child(field.getKey());
            String key = child.toString();
            boolean chartGoesDeeper = chartKeys.stream().anyMatch(chartKey -> chartKey.startsWith(key + "."));
            if (field.getValue().isObject() && chartGoesDeeper && !child.equals(HelmValueKeys.AFFINITY)) {
                collect(field.getValue(), child, chartKeys, keys);
            } else {
                keys.add(key);
            }
        });
    }

    /** Every key path of the chart's values.yaml (in the upstream mirror), in Helm --set spelling. */
    private static Set<String> chartKeys(String chartVersion) {
        String tag = chartVersion.startsWith("v") ? chartVersion : "v" + chartVersion;
        Path valuesFile =
                UpstreamCharts.chart(tag, UpstreamCharts.CONTROLLER_CHART).resolve("values.yaml");
        Set<String> keys = new TreeSet<>();
        collectChartKeys(Json.readYaml(valuesFile), "", keys);
        return keys;
    }

    private static void collectChartKeys(JsonNode node, String prefix, Set<String> keys) {
        node.fields().forEachRemaining(field -> {
            String key = prefix + field.getKey().replace(".", "\\.");
            keys.add(key);
            if (field.getValue().isObject()) {
                collectChartKeys(field.getValue(), key + ".", keys);
            }
        });
    }
}
