package dev.platform.karpenter.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.schema.ChartValuesSchema;
import dev.platform.karpenter.schema.ChartValuesSchema.Value;
import dev.platform.karpenter.testing.Docs;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every value of the newest release's chart, set through controller_values one at a time: taken and found in the
 * controller release's Helm values at its own path, unless the project owns it. Then all the settable ones at once,
 * rendered by Helm from the upstream chart.
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class ChartValuesCoverageTest {
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final KarpenterRelease NEWEST = KarpenterRelease.newest();

    @Test
    void everyChartValueIsSettableExceptTheOnesTheProjectOwns() throws IOException {
        List<Value> values = ChartValuesSchema.of(NEWEST).values();
        List<String> settable = new ArrayList<>();
        Map<String, String> owned = new TreeMap<>();
        Map<String, Object> everySettable = new LinkedHashMap<>();
        for (Value value : values) {
            String line = "controller_values = " + hcl(value.path(), example(value));
            String path = String.join(".", value.path());
            ClusterConfig config;
            try {
                config = TestConfigs.config(NEWEST.chartVersion(), line);
            } catch (ConfigException e) {
                owned.put(path, e.getMessage());
                continue;
            }
            JsonNode tree = ControllerValues.of(config, "https://endpoint", "arn:role", "profile", "queue")
                    .toTree();
            // An open map merges with what the app puts there (controller.resources, the service account's
            // annotations): the example's own key is what must arrive.
            String at = pointer(value.path());
            Object example = example(value);
            if (example instanceof Map<?, ?> map) {
                map.forEach((key, inner) -> assertThat(tree.at(at + pointer(List.of(key.toString()))))
                        .as(path)
                        .isEqualTo(Json.tree(inner)));
            } else {
                assertThat(tree.at(at)).as(path).isEqualTo(Json.tree(example));
            }
            settable.add(path);
            put(everySettable, value.path(), example);
        }

        assertThat(owned)
                .containsOnlyKeys(
                        "serviceAccount.name",
                        "settings.clusterName",
                        "settings.clusterEndpoint",
                        "settings.interruptionQueue");
        assertThat(owned.values()).allSatisfy(message -> assertThat(message).contains("set by the project"));
        assertThat(values).hasSize(79);
        assertThat(settable).hasSize(values.size() - owned.size());
        String readme = Docs.all();
        assertThat(readme)
                .contains("settable through `controller_values`: " + settable.size() + " of its " + values.size());

        // All of them at once: the chart still renders.
        ClusterConfig config =
                TestConfigs.config(NEWEST.chartVersion(), "controller_values = " + hclValue(everySettable));
        String yaml = ControllerValues.of(config, "https://endpoint", "arn:role", "profile", "queue")
                .toYaml();
        String newestTag = UpstreamCharts.V1.get(UpstreamCharts.V1.size() - 1);
        assertThat(HelmRender.template(
                        UpstreamCharts.chart(newestTag, UpstreamCharts.CONTROLLER_CHART),
                        "karpenter",
                        "karpenter",
                        yaml))
                .isNotEmpty();
    }

    /** A value of the kind the chart's default has, unlike the default. */
    private static Object example(Value value) {
        return switch (value.kind()) {
            case STRING -> "example";
            case BOOLEAN -> !Boolean.parseBoolean(value.chartDefault());
            case INTEGER -> Long.parseLong(value.chartDefault()) + 1;
            case NUMBER -> 0.5;
            case INTEGER_OR_STRING -> "50%";
            case LIST -> List.of(Map.of("name", "example"));
            case OPEN_OBJECT -> Map.of("example.com/key", "example");
            case ANY -> 30L;
            case OBJECT -> throw new AssertionError("not a value: " + value);
        };
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> tree, List<String> path, Object value) {
        Map<String, Object> parent = tree;
        for (String key : path.subList(0, path.size() - 1)) {
            parent = (Map<String, Object>) parent.computeIfAbsent(key, k -> new LinkedHashMap<String, Object>());
        }
        parent.put(path.get(path.size() - 1), value);
    }

    /** The value as tfvars writes it, nested under its path: { a = { "b.c" = 1 } }. */
    private static String hcl(List<String> path, Object value) {
        String text = hclValue(value);
        for (int i = path.size() - 1; i >= 0; i--) {
            text = "{ " + hclKey(path.get(i)) + " = " + text + " }";
        }
        return text;
    }

    private static String hclValue(Object value) {
        if (value instanceof String text) {
            return "\"" + text + "\"";
        }
        if (value instanceof List<?> list) {
            return "["
                    + String.join(
                            ", ",
                            list.stream().map(ChartValuesCoverageTest::hclValue).toList()) + "]";
        }
        if (value instanceof Map<?, ?> map) {
            List<String> entries = new ArrayList<>();
            map.forEach((k, v) -> entries.add(hclKey(k.toString()) + " = " + hclValue(v)));
            return "{ " + String.join(", ", entries) + " }";
        }
        return String.valueOf(value);
    }

    private static String hclKey(String key) {
        return PLAIN_KEY.matcher(key).matches() ? key : "\"" + key + "\"";
    }

    private static String pointer(List<String> path) {
        StringBuilder pointer = new StringBuilder();
        path.forEach(key -> pointer.append('/').append(key.replace("~", "~0").replace("/", "~1")));
        return pointer.toString();
    }
}
