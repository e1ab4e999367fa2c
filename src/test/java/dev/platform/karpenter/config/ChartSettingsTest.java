package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.tfvars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.config.ChartRepository.Registry;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
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
    private static final String V031 = "v0.31.5";
    private static final String V032 = "v0.32.10";

    @TempDir
    Path dir;

    /** A wrong setting, the release it is written for, and the exact line it is refused with. */
    static Stream<Arguments> refusals() {
        return Stream.of(
                refused(
                        V1,
                        "controller_values = { settings = { featureGates = { spotToSpotConsolidaton = true } } }",
                        "controller_values.settings.featureGates.spotToSpotConsolidaton: unknown key; did you mean "
                                + "spotToSpotConsolidation? (chart values of Karpenter " + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = { loglevel = \"debug\" }",
                        "controller_values.loglevel: unknown key; did you mean logLevel? (chart values of Karpenter"
                                + " " + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = { featureGates = { nodeRepair = true } }",
                        "controller_values.featureGates: unknown key; did you mean settings.featureGates? (chart "
                                + "values of Karpenter " + TestConfigs.V1 + ")"),
                refused(
                        V031,
                        "controller_values = { settings = { featureGates = { spotToSpotConsolidation = true } } }",
                        "controller_values.settings.featureGates.spotToSpotConsolidation: unknown key; did you mean "
                                + "driftEnabled? (chart values of Karpenter 0.31.5)"),
                refused(
                        V1,
                        "controller_values = { settings = { aws = { enablePodENI = true } } }",
                        "controller_values.settings.aws: unknown key in this release's chart; the nearest is "
                                + "clusterName (chart values of Karpenter " + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = { settings = { aws = { isolatedVPC = true } } }",
                        "controller_values.settings.aws: unknown key; did you mean settings.isolatedVPC? (chart values"
                                + " of Karpenter " + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = { replicas = \"3\" }",
                        "controller_values.replicas: must be a whole number (the chart's default is 2), got a string"
                                + " (chart values of Karpenter " + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = { logLevel = true }",
                        "controller_values.logLevel: must be a string (the chart's default is \"info\"), got true "
                                + "(chart values of Karpenter " + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = { tolerations = { key = \"dedicated\" } }",
                        "controller_values.tolerations: must be a list, got an object (chart values of Karpenter " + ""
                                + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = { podAnnotations = [\"prometheus.io/scrape\"] }",
                        "controller_values.podAnnotations: must be an object, got a list (chart values of Karpenter "
                                + "" + TestConfigs.V1 + ")"),
                refused(
                        V1,
                        "controller_values = \"debug\"",
                        "controller_values must be an object, got the string \"debug\""),
                refused(
                        V1,
                        "controller_values = { settings = { clusterName = \"other\" } }",
                        "controller_values.settings.clusterName: set by the project from cluster_name; write that "
                                + "setting instead"),
                refused(
                        V1,
                        "controller_values = { settings = { clusterEndpoint = \"https://example.com\" } }",
                        "controller_values.settings.clusterEndpoint: set by the project to the cluster's endpoint, "
                                + "which it reads from EKS"),
                refused(
                        V1,
                        "controller_values = { settings = { interruptionQueue = \"other\" } }",
                        "controller_values.settings.interruptionQueue: set by the project to the interruption queue "
                                + "it creates (queue_name)"),
                refused(
                        V1,
                        "controller_values = { serviceAccount = { name = \"other\" } }",
                        "controller_values.serviceAccount.name: set by the project from karpenter_service_account, the"
                                + " account the controller role trusts; write that setting instead"),
                refused(
                        V1,
                        "controller_values = { serviceAccount = { annotations = { \"eks.amazonaws.com/role-arn\" ="
                                + " \"arn:aws:iam::123456789012:role/x\" } } }",
                        "controller_values.serviceAccount.annotations.\"eks.amazonaws.com/role-arn\": set by the "
                                + "project to the controller role it creates with this release's policy "
                                + "(controller_identity; pod_identity binds that role without it)"),
                refused(
                        V1,
                        "controller_values = { settings = { clusterName = null } }",
                        "controller_values.settings.clusterName: set by the project from cluster_name; write that "
                                + "setting instead"),
                refused(
                        V1,
                        "controller_values = { settings = null }",
                        "controller_values.settings: null would remove settings.clusterName, which the project sets "
                                + "(cluster_name)"),
                refused(
                        V1,
                        "controller_values = { serviceAccount = { annotations = null } }",
                        "controller_values.serviceAccount.annotations: null would remove "
                                + "serviceAccount.annotations.\"eks.amazonaws.com/role-arn\", which the project sets "
                                + "(controller_identity)"),
                refused(
                        V031,
                        "controller_values = { settings = { aws = { clusterName = \"other\" } } }",
                        "controller_values.settings.aws.clusterName: set by the project from cluster_name; write that"
                                + " setting instead"),
                refused(
                        V031,
                        "controller_values = { settings = { aws = { defaultInstanceProfile = \"mine\" } } }",
                        "controller_values.settings.aws.defaultInstanceProfile: set by the project to the instance "
                                + "profile of the node role (create_iam_role, iam_role_arn, node_group_name)"),
                // 0.32 still takes settings.aws (an open map) and prefers it over settings.*.
                refused(
                        V032,
                        "controller_values = { settings = { aws = { interruptionQueueName = \"other\" } } }",
                        "controller_values.settings.aws.interruptionQueueName: set by the project to the interruption"
                                + " queue it creates (queue_name)"),
                refused(
                        V1,
                        "chart_repository = \"https://charts.example.com/karpenter\"",
                        "chart_repository must be an OCI repository such as \"oci://public.ecr.aws/karpenter\" or "
                                + "\"oci://123456789012.dkr.ecr.us-west-2.amazonaws.com/ecr-public/karpenter\" "
                                + "(lowercase, no trailing '/'), got \"https://charts.example.com/karpenter\""),
                refused(
                        V1,
                        "chart_repository = \"oci://public.ecr.aws/karpenter/\"",
                        "chart_repository must be an OCI repository such as \"oci://public.ecr.aws/karpenter\" or "
                                + "\"oci://123456789012.dkr.ecr.us-west-2.amazonaws.com/ecr-public/karpenter\" "
                                + "(lowercase, no trailing '/'), got \"oci://public.ecr.aws/karpenter/\""),
                refused(
                        V1,
                        "chart_repository = \"oci://123456789012.dkr.ecr.us-wset-2.amazonaws.com/karpenter\"",
                        "chart_repository's ECR region must be an AWS region such as us-east-1 or eusc-de-east-1 "
                                + "(one the AWS SDK's partition metadata lists), got \"us-wset-2\""),
                refused(
                        V1,
                        "chart_repository = \"oci://123456789012.dkr.ecr.cn-north-1.amazonaws.com/karpenter\"",
                        "chart_repository names an ECR registry in cn-north-1, whose host ends in .amazonaws.com.cn,"
                                + " got \"oci://123456789012.dkr.ecr.cn-north-1.am...\" (61 characters)"),
                refused(
                        V1,
                        "chart_repository = \"oci://123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/karpenter\"",
                        "chart_repository names an ECR registry in cn-north-1 (partition aws-cn); the cluster's "
                                + "region us-west-2 is in aws, whose credentials cannot get its pull token"));
    }

    private static Arguments refused(String version, String line, String expected) {
        return Arguments.of(version, line, "c1.tfvars: " + expected);
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
