package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.tfvars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.platform.karpenter.config.ChartRepository.Registry;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** controller_values and chart_repository as a tfvars file sets them: what is taken, and each refusal's one line. */
@KernelOnlyThroughSynthesized
class ChartSettingsTest {
    private static final String V1 = TestConfigs.V1;

    @TempDir
    Path dir;

    /** A wrong setting, the release it is written for, and the exact line it is refused with: chart-refusals.yaml. */
    static Stream<Arguments> refusals() throws IOException {
        try (InputStream in = ChartSettingsTest.class.getResourceAsStream("chart-refusals.yaml")) {
            List<Map<String, String>> rows =
                    Json.yamlMapper().readValue(in, new TypeReference<List<Map<String, String>>>() {});
            return rows.stream().map(row -> {
                String release = row.get("release").equals("newest") ? V1 : row.get("release");
                return Arguments.of(
                        release,
                        row.get("line"),
                        "c1.tfvars: " + row.get("refused").replace("{newest}", V1));
            });
        }
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void eachWrongSettingIsRefusedWithItsOneLine(String version, String line, String expected) throws IOException {
        Path file = dir.resolve("c1.tfvars");
        Files.writeString(file, tfvars(version, line));

        assertThatThrownBy(() -> ConfigLoader.load(List.of(file), Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(
                        e -> assertThat(e.getMessage().replace(dir + "/", "")).isEqualTo(expected));
    }

    @Test
    void valuesAreKeptAsWrittenInOrderWithTheirNulls() {
        Map<String, Object> values = config(
                        V1,
                        "controller_values = {",
                        "  logLevel = \"debug\"",
                        "  settings = { featureGates = { spotToSpotConsolidation = true }, vmMemoryOverheadPercent = 0.1 }",
                        "  nodeSelector = null",
                        "  podAnnotations = { \"prometheus.io/scrape\" = \"true\" }",
                        "  serviceAccount = { annotations = { \"example.com/team\" = \"platform\" } }",
                        "}")
                .controller()
                .chartValues();

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("logLevel", "debug");
        expected.put(
                "settings",
                Map.of("featureGates", Map.of("spotToSpotConsolidation", true), "vmMemoryOverheadPercent", 0.1));
        expected.put("nodeSelector", null);
        expected.put("podAnnotations", Map.of("prometheus.io/scrape", "true"));
        expected.put("serviceAccount", Map.of("annotations", Map.of("example.com/team", "platform")));
        assertThat(values).containsExactlyEntriesOf(expected);
    }

    /** On 1.0 the webhook may move (the CRD release follows it); it may not be turned off. */
    @Test
    void theConversionWebhookMayMoveOn10() {
        assertThat(config("1.0.14", "controller_values = { webhook = { enabled = true, port = 9443 } }")
                        .controller()
                        .chartValues())
                .containsKey("webhook");
    }

    @Test
    void withoutControllerValuesNothingIsAddedAndTheChartsComeFromEcrPublic() {
        ControllerSettings controller = config(V1).controller();

        assertThat(controller.chartValues()).isEmpty();
        assertThat(controller.chartRepository())
                .isEqualTo(new ChartRepository(
                        "oci://public.ecr.aws/karpenter",
                        Registry.ECR_PUBLIC,
                        "public.ecr.aws",
                        Optional.empty(),
                        Optional.empty()));
    }

    @Test
    void aPrivateEcrRegistryIsKnownByItsAccountAndRegionAndAnyOtherOciRegistryByItsHost() {
        assertThat(repository("oci://123456789012.dkr.ecr.eu-west-1.amazonaws.com/ecr-public/karpenter"))
                .isEqualTo(new ChartRepository(
                        "oci://123456789012.dkr.ecr.eu-west-1.amazonaws.com/ecr-public/karpenter",
                        Registry.ECR,
                        "123456789012.dkr.ecr.eu-west-1.amazonaws.com",
                        Optional.of("123456789012"),
                        Optional.of("eu-west-1")));
        assertThat(repository("oci://registry.example.com:5000/mirror/karpenter"))
                .isEqualTo(new ChartRepository(
                        "oci://registry.example.com:5000/mirror/karpenter",
                        Registry.OTHER,
                        "registry.example.com:5000",
                        Optional.empty(),
                        Optional.empty()));
        assertThat(repository("oci://public.ecr.aws/my-mirror/karpenter").registry())
                .isEqualTo(Registry.ECR_PUBLIC);
    }

    private static ChartRepository repository(String url) {
        return config(V1, "chart_repository = \"" + url + "\"").controller().chartRepository();
    }
}
