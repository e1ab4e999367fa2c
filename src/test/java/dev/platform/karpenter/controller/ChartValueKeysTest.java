package dev.platform.karpenter.controller;

import static dev.platform.karpenter.controller.ControllerFixtures.V0;
import static dev.platform.karpenter.controller.ControllerFixtures.V1;
import static dev.platform.karpenter.controller.ControllerFixtures.values;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.release.HelmValueKeys;
import dev.platform.karpenter.release.ValuePath;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every key path the controller stack writes exists in the values.yaml of the chart version it installs, so a
 * key of the wrong generation (the silent failure of settings.aws.* on a 1.x chart) cannot ship. The key lists in
 * src/test/resources/chart-values-keys/ were copied from the upstream charts' values.yaml.
 */
class ChartValueKeysTest {

    @Test
    void everyV0KeyExistsInTheV030Chart() {
        Set<String> chartKeys = chartKeys("v0.30.0");
        List<String> written = writtenKeys(values(V0), chartKeys);

        assertThat(chartKeys).containsAll(written);
        assertThat(written).containsExactlyInAnyOrder(
                "settings.aws.clusterName", "settings.aws.clusterEndpoint", "settings.aws.interruptionQueueName",
                "settings.aws.defaultInstanceProfile", "serviceAccount.name", "serviceAccount.annotations", "replicas",
                "controller.resources", "tolerations", "affinity");
    }

    @Test
    void everyV1KeyExistsInThe1141Chart() {
        Set<String> chartKeys = chartKeys("1.14.1");
        List<String> written = writtenKeys(values(V1), chartKeys);

        assertThat(chartKeys).containsAll(written);
        assertThat(written).containsExactlyInAnyOrder(
                "settings.clusterName", "settings.clusterEndpoint", "settings.interruptionQueue",
                "serviceAccount.name", "serviceAccount.annotations", "replicas", "controller.resources", "tolerations",
                "affinity");
    }

    @Test
    void theGenerationsKeysAreNotInterchangeable() {
        assertThat(chartKeys("1.14.1")).doesNotContain("settings.aws.clusterName", "settings.aws.interruptionQueueName",
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

    private static Set<String> chartKeys(String chartVersion) {
        String resource = "/chart-values-keys/" + chartVersion + ".txt";
        try (InputStream in = ChartValueKeysTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new AssertionError("missing test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
