package dev.platform.karpenter.controller;

import static dev.platform.karpenter.controller.ControllerFixtures.EVERY_CONTROLLER_SETTING;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.release.HelmValueKeys;
import dev.platform.karpenter.release.ValuePath;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The values of the v1beta1 releases against the templates of their real charts (read from the upstream mirror):
 * every key the controller stack writes is one the chart's templates read, so a key of
 * the wrong generation cannot silently switch a setting off.
 */
@KernelOnlyThroughSynthesized
@NeedsUpstreamMirror
class V1Beta1ChartValuesTest {
    private static final Set<ValuePath> HANDED_OVER_WHOLE = Set.of(
            HelmValueKeys.SERVICE_ACCOUNT_ANNOTATIONS,
            HelmValueKeys.CONTROLLER_RESOURCES,
            HelmValueKeys.TOLERATIONS,
            HelmValueKeys.AFFINITY);

    @Test
    void at032KeepingProvisionersTheNewKeysAndTheOldInstanceProfileAreRead() {
        List<String> written = written(TestConfigs.config("v0.32.10", EVERY_CONTROLLER_SETTING));

        assertThat(written)
                .containsExactlyInAnyOrderElementsOf(ChartValueKeysTest.withSharedKeys(
                        "settings.clusterName",
                        "settings.clusterEndpoint",
                        "settings.interruptionQueue",
                        "settings.aws.defaultInstanceProfile"));
        assertThat(templateReads("v0.32.10")).containsAll(written);
    }

    @Test
    void once032RetiresTheProvisionersAndFrom033OnNoSettingsAwsKeyIsWritten() {
        List<String> retired = written(TestConfigs.config("v0.32.10", "retired_api = \"v1alpha5\""));
        List<String> at037 = written(TestConfigs.config("0.37.8", EVERY_CONTROLLER_SETTING));

        assertThat(retired).noneMatch(key -> key.startsWith("settings.aws"));
        assertThat(templateReads("v0.32.10")).containsAll(retired);
        assertThat(at037)
                .contains("settings.clusterName", "settings.interruptionQueue")
                .noneMatch(key -> key.startsWith("settings.aws"));
        assertThat(templateReads("v0.37.8")).containsAll(at037).doesNotContain("settings.aws.interruptionQueueName");
    }

    private static List<String> written(ClusterConfig config) {
        JsonNode values = ControllerValues.of(
                        config,
                        "https://example.eks.amazonaws.com",
                        "arn:aws:iam::123456789012:role/KarpenterIRSA-demo",
                        "KarpenterNodeInstanceProfile-demo",
                        "demo")
                .toTree();
        List<String> keys = new ArrayList<>();
        collect(values, null, keys);
        return keys;
    }

    private static void collect(JsonNode node, ValuePath path, List<String> keys) {
        node.fields().forEachRemaining(field -> {
            ValuePath child = path == null ? ValuePath.of(field.getKey()) : path.child(field.getKey());
            if (field.getValue().isObject() && !HANDED_OVER_WHOLE.contains(child)) {
                collect(field.getValue(), child, keys);
            } else {
                keys.add(child.toString());
            }
        });
    }

    /** Every {@code .Values.x.y} path the chart's templates read. */
    private static Set<String> templateReads(String tag) {
        try (Stream<Path> files = Files.walk(
                UpstreamCharts.chart(tag, UpstreamCharts.CONTROLLER_CHART).resolve("templates"))) {
            String text = files.filter(Files::isRegularFile).map(Json::text).collect(Collectors.joining("\n"));
            return java.util.regex.Pattern.compile("\\.Values\\.([A-Za-z0-9_.]+)")
                    .matcher(text)
                    .results()
                    .map(m -> m.group(1))
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
