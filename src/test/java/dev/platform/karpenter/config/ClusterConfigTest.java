package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.V0;
import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.assertRejected;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ClusterConfigTest {

    @Test
    void appliesTheDocumentedDefaults() {
        ClusterConfig config = config(V0);

        assertThat(config.clusterName()).isEqualTo("demo");
        assertThat(config.region()).isEqualTo("us-west-2");
        assertThat(config.release().chartVersion()).isEqualTo("v0.30.0");
        assertThat(config.namespace()).isEqualTo("karpenter");
        assertThat(config.serviceAccount()).isEqualTo("karpenter");
        assertThat(config.tags()).isEmpty();
        assertThat(config.iam().controllerIdentity()).isEqualTo(ControllerIdentity.IRSA);
        assertThat(config.iam().createNodeRole()).isFalse();
        assertThat(config.iam().nodeGroupName()).isEqualTo("default");
        assertThat(config.iam().nodeRoleArn()).isEmpty();
        assertThat(config.iam().useNamePrefix()).isFalse();
        assertThat(config.interruption().queueName()).isEqualTo("demo");
        assertThat(config.controller().stsRegionalEndpoints()).isFalse();
        assertThat(config.poolsAndClasses().nodeClass("default").amiFamily()).isEqualTo(AmiFamily.BOTTLEROCKET);
        assertThat(config.poolsAndClasses().nodeClass("default").discoveryTagValue())
                .isEqualTo("demo");
        assertThat(config.backend().isRemote()).isFalse();
    }

    /** Upstream's getting-started guide associates the controller with EKS Pod Identity from 0.33 on (#5259). */
    @Test
    void podIdentityFrom033On() {
        assertThat(config("v0.33.0", "controller_identity = \"pod_identity\"")
                        .iam()
                        .controllerIdentity())
                .isEqualTo(ControllerIdentity.POD_IDENTITY);
        assertThat(config("0.37.8", "controller_identity = \"pod_identity\"")
                        .iam()
                        .controllerIdentity())
                .isEqualTo(ControllerIdentity.POD_IDENTITY);
    }

    @Test
    void readsEveryDocumentedSetting() {
        ClusterConfig config = config(
                V1,
                "karpenter_namespace = \"kube-system\"",
                "controller_identity = \"pod_identity\"",
                "create_iam_role = true",
                "irsa_use_name_prefix = true",
                "sts_regional_endpoints = true",
                "ami_family = \"AL2023\"",
                "tags = { Team = \"platform\", CostCenter = \"42\" }",
                "state_bucket = \"my-state\"",
                "state_region = \"eu-west-1\"");

        assertThat(config.release().apiGeneration()).isEqualTo(ApiGeneration.V1);
        assertThat(config.namespace()).isEqualTo("kube-system");
        assertThat(config.iam().controllerIdentity()).isEqualTo(ControllerIdentity.POD_IDENTITY);
        assertThat(config.iam().createNodeRole()).isTrue();
        assertThat(config.iam().useNamePrefix()).isTrue();
        assertThat(config.controller().stsRegionalEndpoints()).isTrue();
        assertThat(config.poolsAndClasses().nodeClass("default").amiFamily()).isEqualTo(AmiFamily.AL2023);
        assertThat(config.tags())
                .containsExactly(java.util.Map.entry("Team", "platform"), java.util.Map.entry("CostCenter", "42"));
        assertThat(config.backend().bucket()).contains("my-state");
        assertThat(config.backend().region()).isEqualTo("eu-west-1");
    }

    @Test
    void theExampleFileIsAValidConfiguration() {
        ClusterConfig config = ConfigLoader.read(java.nio.file.Path.of("terraform.tfvars.example"));

        assertThat(config.clusterName()).isEqualTo("eks-cluster");
        assertThat(config.release().chartVersion()).isEqualTo(TestConfigs.V1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void rejectsBadInputWithOneLineNamingTheSetting(String caseName, String tfvarsText, String expectedMessage) {
        assertRejected(tfvarsText, expectedMessage);
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("unknown key", tfvars(V0, "clustr_name = \"x\""), "unknown setting clustr_name"),
                Arguments.of(
                        "missing cluster_name",
                        "region = \"us-west-2\"\nkarpenter_chart_version = \"v0.30.0\"\n",
                        "cluster_name is required"),
                Arguments.of(
                        "missing region",
                        "cluster_name = \"demo\"\nkarpenter_chart_version = \"v0.30.0\"\n",
                        "region is required"),
                Arguments.of(
                        "missing chart version",
                        "cluster_name = \"demo\"\nregion = \"us-west-2\"\n",
                        "karpenter_chart_version is required"),
                Arguments.of(
                        "wrong type bool",
                        tfvars(V0, "create_iam_role = \"yes\""),
                        "create_iam_role must be true or false, got the string \"yes\""),
                Arguments.of(
                        "wrong type string",
                        tfvars(V0, "karpenter_namespace = 3"),
                        "karpenter_namespace must be a string"),
                Arguments.of("wrong type map", tfvars(V0, "tags = [\"a\"]"), "tags must be a map of strings"),
                Arguments.of(
                        "iam_role_access_entry without iam_role_arn",
                        tfvars(V0, "iam_role_access_entry = false"),
                        "iam_role_access_entry applies only with iam_role_arn"),
                Arguments.of(
                        "wrong type integer",
                        tfvars(V0, "controller_replicas = 1.5"),
                        "controller_replicas must be a whole number"),
                Arguments.of(
                        "no such 0.x chart", tfvars("v0.38.0"), "karpenter_chart_version \"v0.38.0\" is not supported"),
                Arguments.of(
                        "too new chart",
                        tfvars("2.0.0"),
                        "supported: v0.30.x to 0.37.x or 1.0.x to " + TestConfigs.V1_SERIES),
                Arguments.of(
                        "retiring the running generation",
                        tfvars("v0.32.10", "retired_api = \"v1beta1\""),
                        "retired_api \"v1beta1\" cannot be retired with Karpenter v0.32.10; use \"v1alpha5\""),
                Arguments.of(
                        "override of another version",
                        tfvars(TestConfigs.V1, "upgrade_override = \"1.13.0\""),
                        "upgrade_override \"1.13.0\" must name karpenter_chart_version (\"" + TestConfigs.V1 + "\")"),
                Arguments.of(
                        "beside Auto Mode on 1.0",
                        tfvars("1.0.14", "beside_auto_mode = true"),
                        "beside_auto_mode = true needs a Karpenter that can run beside EKS Auto Mode (AWS's migration"
                                + " to Auto Mode starts from 1.1 or later), but karpenter_chart_version is \"1.0.14\":"
                                + " allowed 1.1.x to " + TestConfigs.V1_SERIES + ""),
                Arguments.of(
                        "beside Auto Mode on 0.x",
                        tfvars(V0, "beside_auto_mode = true"),
                        "karpenter_chart_version is \"v0.30.0\": allowed 1.1.x to " + TestConfigs.V1_SERIES + ""),
                Arguments.of(
                        "retiring on 0.31",
                        tfvars(V0, "retired_api = \"v1alpha5\""),
                        "retired_api applies to Karpenter 0.32 and later only; with v0.30.0 remove retired_api"),
                Arguments.of(
                        "not a version",
                        tfvars("latest"),
                        "karpenter_chart_version \"latest\" is not a release version"),
                Arguments.of(
                        "invalid region",
                        tfvars(V0, "").replace("us-west-2", "mars-north-1"),
                        "region must be an AWS region such as us-east-1"),
                Arguments.of(
                        "role name over 64",
                        tfvarsNamed("c".repeat(51)),
                        "makes the IAM role name \"KarpenterIRSA-" + "c".repeat(51)
                                + "\" 65 characters; AWS allows 64"),
                Arguments.of(
                        "name prefix over 38",
                        tfvarsNamed("c".repeat(24), "irsa_use_name_prefix = true"),
                        "makes the IAM role name prefix \"KarpenterIRSA-" + "c".repeat(24)
                                + "-\" 39 characters; AWS allows 38"),
                Arguments.of(
                        "node role over 64",
                        tfvarsNamed("c".repeat(47), "create_iam_role = true"),
                        "makes the node IAM role name"),
                Arguments.of(
                        "bad identity",
                        tfvars(V0, "controller_identity = \"kiam\""),
                        "controller_identity must be \"irsa\" or \"pod_identity\", got \"kiam\""),
                Arguments.of(
                        "pod identity before 0.33",
                        tfvars(V0, "controller_identity = \"pod_identity\""),
                        "controller_identity \"pod_identity\" applies to Karpenter 0.33 and later only; with v0.30.0 use"
                                + " \"irsa\""),
                Arguments.of(
                        "pod identity on 0.32",
                        tfvars("v0.32.10", "controller_identity = \"pod_identity\""),
                        "controller_identity \"pod_identity\" applies to Karpenter 0.33 and later only"),
                Arguments.of(
                        "bad ami family",
                        tfvars(V0, "ami_family = \"Ubuntu\""),
                        "ami_family must be one of \"Bottlerocket\", \"AL2023\", \"AL2\", \"Windows2019\", \"Windows2022\","
                                + " \"Windows2025\", \"Custom\", got \"Ubuntu\""),
                Arguments.of(
                        "bad role arn",
                        tfvars(V0, "iam_role_arn = \"my-role\""),
                        "iam_role_arn must be an IAM role ARN"),
                Arguments.of(
                        "role arn with create",
                        tfvars(V0, "iam_role_arn = \"arn:aws:iam::123456789012:role/n\"", "create_iam_role = true"),
                        "create_iam_role must be false"),
                Arguments.of(
                        "bad namespace",
                        tfvars(V0, "karpenter_namespace = \"Karpenter\""),
                        "karpenter_namespace must be a Kubernetes name"),
                Arguments.of("bad cluster name", tfvarsNamed("-demo"), "cluster_name must be an EKS cluster name"),
                Arguments.of(
                        "aws managed queue key",
                        tfvars(V0, "queue_kms_key_id = \"alias/aws/sqs\""),
                        "queue_kms_key_id must be a customer managed key"),
                Arguments.of(
                        "bad bucket",
                        tfvars(V0, "state_bucket = \"My_Bucket\""),
                        "state_bucket must be an S3 bucket name"),
                Arguments.of(
                        "not HCL",
                        "cluster_name = = \"demo\"",
                        "line 1 (cluster_name): expected a value, found \"= \\\"demo\\\"\""));
    }

    @Test
    void acceptsTheLongestValidClusterName() {
        String longest = "c".repeat(50);
        ClusterConfig config = parse(tfvarsNamed(longest));

        assertThat(config.names().controllerRole()).hasSize(ResourceNames.IAM_ROLE_NAME_MAX);
        assertThat(config.names().eventRule("x".repeat(ResourceNames.EVENT_RULE_SUFFIX_MAX)))
                .hasSize(ResourceNames.EVENT_RULE_NAME_MAX);
    }

    @Test
    void normalizesTheChartVersionToTheRegistrySpelling() {
        assertThat(config("0.30.0").release().chartVersion()).isEqualTo("v0.30.0");
        assertThat(config(("v" + TestConfigs.V1)).release().chartVersion()).isEqualTo(TestConfigs.V1);
    }

    private static String tfvars(String chartVersion, String... extra) {
        return dev.platform.karpenter.testing.TestConfigs.tfvars(chartVersion, extra);
    }

    private static String tfvarsNamed(String clusterName, String... extra) {
        return dev.platform.karpenter.testing.TestConfigs.tfvarsFor(clusterName, "us-west-2", V0, extra);
    }
}
