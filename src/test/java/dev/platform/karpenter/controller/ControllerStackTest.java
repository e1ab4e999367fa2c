package dev.platform.karpenter.controller;

import static dev.platform.karpenter.controller.ControllerFixtures.STACK;
import static dev.platform.karpenter.controller.ControllerFixtures.release;
import static dev.platform.karpenter.controller.ControllerFixtures.values;
import static dev.platform.karpenter.testing.Json.fieldNames;
import static dev.platform.karpenter.testing.Json.texts;
import static dev.platform.karpenter.testing.Json.yaml;
import static dev.platform.karpenter.testing.Synthesized.idWhere;
import static dev.platform.karpenter.testing.Synthesized.onlyId;
import static dev.platform.karpenter.testing.Synthesized.resources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The synthesized {@code demo-karpenter} stack of a 0.x and a 1.x cluster. */
@KernelOnlyThroughSynthesized
class ControllerStackTest {
    private static final String TOKEN = "data.aws_ecrpublic_authorization_token.ecr_public";

    @RegisterExtension
    static final Synthesized V0 = ControllerFixtures.v0();

    @RegisterExtension
    static final Synthesized V1 = ControllerFixtures.v1();

    static List<Arguments> generations() {
        return List.of(Arguments.of(V0, "v0.30.0", "karpenter"), Arguments.of(V1, TestConfigs.V1, "kube-system"));
    }

    @ParameterizedTest
    @MethodSource("generations")
    void installsTheCrdChartAndTheControllerChartFromEcrPublicAtTheRegistrysVersion(
            Synthesized synthesized, String version, String namespace) {
        Map<String, String> charts = Map.of("karpenter_crd", "karpenter-crd", "karpenter", "karpenter");
        assertThat(fieldNames(synthesized.stack(STACK).path("resource").path("helm_release")))
                .containsExactlyInAnyOrderElementsOf(charts.keySet());
        charts.forEach((address, chart) -> {
            JsonNode release = release(synthesized, address);
            assertThat(release.path("name").asText()).isEqualTo(chart);
            assertThat(release.path("chart").asText()).isEqualTo(chart);
            assertThat(release.path("repository").asText()).isEqualTo("oci://public.ecr.aws/karpenter");
            assertThat(release.path("version").asText()).isEqualTo(version);
            assertThat(release.path("namespace").asText()).isEqualTo(namespace);
            assertThat(release.path("create_namespace").asBoolean()).isTrue();
        });
    }

    @ParameterizedTest
    @MethodSource("generations")
    void installsTheCrdsBeforeTheControllerAndLeavesTheControllersCrdsToTheCrdChart(Synthesized synthesized) {
        JsonNode controller = release(synthesized, "karpenter");
        assertThat(texts(controller.path("depends_on"))).containsExactly("helm_release.karpenter_crd");
        assertThat(controller.path("skip_crds").asBoolean()).isTrue();
        JsonNode crds = release(synthesized, "karpenter_crd");
        assertThat(crds.has("depends_on")).isFalse();
        assertThat(crds.has("values")).isFalse();
    }

    @ParameterizedTest
    @MethodSource("generations")
    void pullsWithTheEcrPublicTokenReadThroughTheUsEast1Provider(Synthesized synthesized) {
        JsonNode stack = synthesized.stack(STACK);
        JsonNode providers = stack.path("provider").path("aws");
        assertThat(providers).hasSize(2);
        assertThat(providers.get(0).has("alias")).isFalse();
        assertThat(providers.get(0).path("region").asText()).isEqualTo("us-west-2");
        assertThat(providers.get(1).path("alias").asText()).isEqualTo("us_east_1");
        assertThat(providers.get(1).path("region").asText()).isEqualTo("us-east-1");
        JsonNode tokens = stack.path("data").path("aws_ecrpublic_authorization_token");
        assertThat(fieldNames(tokens)).containsExactly("ecr_public");
        assertThat(tokens.path("ecr_public").path("provider").asText()).isEqualTo("aws.us_east_1");
        for (String address : List.of("karpenter_crd", "karpenter")) {
            JsonNode release = release(synthesized, address);
            assertThat(release.path("repository_username").asText()).isEqualTo("${" + TOKEN + ".user_name}");
            assertThat(release.path("repository_password").asText()).isEqualTo("${" + TOKEN + ".password}");
            assertThat(texts(release.path("lifecycle").path("ignore_changes"))).containsExactly("repository_password");
        }
    }

    @ParameterizedTest
    @MethodSource("generations")
    void theHelmProviderLogsInWithThisRunsTokenSoUpgradesNeverUseTheStalePasswordInState(Synthesized synthesized) {
        JsonNode registries =
                synthesized.stack(STACK).path("provider").path("helm").get(0).path("registry");
        assertThat(registries).hasSize(1);
        assertThat(registries.get(0).path("url").asText()).isEqualTo("oci://public.ecr.aws");
        assertThat(registries.get(0).path("username").asText()).isEqualTo("${" + TOKEN + ".user_name}");
        assertThat(registries.get(0).path("password").asText()).isEqualTo("${" + TOKEN + ".password}");
    }

    @ParameterizedTest
    @MethodSource("generations")
    void theTokenIsOnlyReferencedByTheRepositoryCredentials(Synthesized synthesized) {
        JsonNode stack = synthesized.stack(STACK);
        Map<String, String> references = new TreeMap<>();
        collectStrings(stack, "", references);
        references.values().removeIf(value -> !value.contains("aws_ecrpublic_authorization_token"));
        assertThat(references.keySet())
                .containsExactly(
                        "/provider/helm/0/registry/0/password",
                        "/provider/helm/0/registry/0/username",
                        "/resource/helm_release/karpenter/repository_password",
                        "/resource/helm_release/karpenter/repository_username",
                        "/resource/helm_release/karpenter_crd/repository_password",
                        "/resource/helm_release/karpenter_crd/repository_username");
        // the only output: the step guard's (upgrade.StepGuardTest), whose value is the chart version
        assertThat(stack.path("output").size()).isOne();
        assertThat(stack.path("output").has("karpenter_step_guard")).isTrue();
    }

    @Test
    void v0ValuesSitAtTheSettingsAwsKeysWithEveryValueWired() {
        ObjectNode values = (ObjectNode) values(V0);
        assertThat(values.at("/settings/aws/clusterEndpoint").asText()).isEqualTo(clusterEndpoint(V0));
        assertThat(produced(V0, values.at("/settings/aws/interruptionQueueName")))
                .isEqualTo(queueName(V0));
        String profile = onlyId(resources(V0.stack("demo-iam"), "aws_iam_instance_profile"));
        assertThat(produced(V0, values.at("/settings/aws/defaultInstanceProfile")))
                .isEqualTo("${aws_iam_instance_profile." + profile + ".name}");
        JsonNode annotations = values.path("serviceAccount").path("annotations");
        assertThat(produced(V0, annotations.path("eks.amazonaws.com/role-arn"))).isEqualTo(controllerRoleArn(V0));

        values.withObjectProperty("settings")
                .withObjectProperty("aws")
                .put("clusterEndpoint", "<endpoint>")
                .put("interruptionQueueName", "<queue>")
                .put("defaultInstanceProfile", "<profile>");
        withRolePlaceholder(values);
        assertThat(values).isEqualTo(yaml("""
                settings:
                  aws:
                    clusterName: demo
                    clusterEndpoint: <endpoint>
                    interruptionQueueName: <queue>
                    defaultInstanceProfile: <profile>
                serviceAccount:
                  name: karpenter
                  annotations:
                    eks.amazonaws.com/role-arn: <role>
                    eks.amazonaws.com/sts-regional-endpoints: "true"
                """ + podSettings("karpenter.sh/provisioner-name")));
    }

    @Test
    void v1ValuesSitAtTheSettingsKeysWithoutAnInstanceProfile() {
        ObjectNode values = (ObjectNode) values(V1);
        assertThat(values.at("/settings/clusterEndpoint").asText()).isEqualTo(clusterEndpoint(V1));
        assertThat(produced(V1, values.at("/settings/interruptionQueue"))).isEqualTo(queueName(V1));
        JsonNode annotations = values.path("serviceAccount").path("annotations");
        assertThat(produced(V1, annotations.path("eks.amazonaws.com/role-arn"))).isEqualTo(controllerRoleArn(V1));

        values.withObjectProperty("settings")
                .put("clusterEndpoint", "<endpoint>")
                .put("interruptionQueue", "<queue>");
        withRolePlaceholder(values);
        assertThat(values).isEqualTo(yaml("""
                settings:
                  clusterName: demo
                  clusterEndpoint: <endpoint>
                  interruptionQueue: <queue>
                serviceAccount:
                  name: karpenter-controller
                  annotations:
                    eks.amazonaws.com/role-arn: <role>
                    eks.amazonaws.com/sts-regional-endpoints: "true"
                """ + podSettings("karpenter.sh/nodepool")));
        // The IAM stack's instance profile is not read: a 1.x chart has no such value and it would add an output.
        assertThat(V1.stack("demo-iam").path("output").toString()).doesNotContain("aws_iam_instance_profile");
    }

    /**
     * The tfvars of ControllerFixtures as chart values: quantities and toleration values as strings, and the node
     * term keeping the chart's rule that the controller avoids the nodes of Karpenter's pools.
     */
    private static String podSettings(String poolLabel) {
        return """
            replicas: 3
            controller:
              resources:
                requests: {cpu: "1", memory: 1Gi}
                limits: {cpu: "1", memory: 1Gi}
            tolerations:
              - {key: CriticalAddonsOnly, operator: Exists}
              - {key: dedicated, operator: Equal, value: "true", effect: NoSchedule}
            affinity:
              nodeAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  nodeSelectorTerms:
                    - matchExpressions:
                        - {key: eks.amazonaws.com/nodegroup, operator: In, values: [default]}
                        - {key: %s, operator: DoesNotExist}
            """.formatted(poolLabel);
    }

    @ParameterizedTest
    @MethodSource("generations")
    void annotationAndTolerationValuesAreYamlStrings(Synthesized synthesized) {
        JsonNode values = values(synthesized);
        JsonNode annotations = values.path("serviceAccount").path("annotations");
        assertThat(annotations.size()).isEqualTo(2);
        annotations.forEach(annotation ->
                assertThat(annotation.isTextual()).as(annotation.toString()).isTrue());
        assertThat(annotations.path("eks.amazonaws.com/sts-regional-endpoints").textValue())
                .isEqualTo("true");
        JsonNode toleration = values.path("tolerations").get(1);
        assertThat(toleration.path("value").isTextual()).isTrue();
        assertThat(toleration.path("value").textValue()).isEqualTo("true");
        assertThat(values.path("replicas").isInt()).isTrue();
    }

    @Test
    void theCrdChartOf10PointsItsConversionWebhookAtTheControllersNamespace() {
        Synthesized v10 = Synthesized.of(TestConfigs.config("1.0.0", "karpenter_namespace = \"platform\""));
        JsonNode values = release(v10, "karpenter_crd").path("values");

        assertThat(values).hasSize(1);
        assertThat(Json.yaml(values.get(0).asText())
                        .at("/webhook/serviceNamespace")
                        .textValue())
                .isEqualTo("platform");
        assertThat(release(V1, "karpenter_crd").has("values"))
                .as("the newest release has no conversion webhook")
                .isFalse();
    }

    @Test
    void leavesTheVersionGuardsToTheClusterDataSource() {
        assertThat(release(V0, "karpenter_crd").path("lifecycle").has("precondition"))
                .isFalse();
        JsonNode guards = V0.stack(STACK)
                .path("data")
                .path("aws_eks_cluster")
                .path(clusterId(V0))
                .path("lifecycle")
                .path("postcondition");
        assertThat(guards).anyMatch(guard -> guard.path("condition").asText().contains("self.version"));
    }

    @Test
    void talksToTheClusterThroughTheHelmProviderOfClusterAccess() {
        JsonNode helm = V0.stack(STACK).path("provider").path("helm");
        assertThat(helm).hasSize(1);
        assertThat(helm.get(0).path("kubernetes").path("host").asText()).isEqualTo(clusterEndpoint(V0));
        assertThat(helm.get(0).path("kubernetes").path("exec").path("command").asText())
                .isEqualTo("aws");
    }

    /** What a {@code terraform_remote_state} reference reads in the producing stack. */
    private static String produced(Synthesized synthesized, JsonNode value) {
        return synthesized.produced(synthesized.stack(STACK), value.asText());
    }

    private static String queueName(Synthesized synthesized) {
        return "${aws_sqs_queue." + onlyId(resources(synthesized.stack("demo-interruption"), "aws_sqs_queue"))
                + ".name}";
    }

    private static String controllerRoleArn(Synthesized synthesized) {
        return "${aws_iam_role." + idWhere(synthesized.stack("demo-iam"), "aws_iam_role", "name", "KarpenterIRSA-demo")
                + ".arn}";
    }

    private static String clusterId(Synthesized synthesized) {
        return onlyId(synthesized.stack(STACK).path("data").path("aws_eks_cluster"));
    }

    private static String clusterEndpoint(Synthesized synthesized) {
        return "${data.aws_eks_cluster." + clusterId(synthesized) + ".endpoint}";
    }

    private static void collectStrings(JsonNode node, String pointer, Map<String, String> strings) {
        if (node.isTextual()) {
            strings.put(pointer, node.textValue());
        }
        node.fields()
                .forEachRemaining(field -> collectStrings(field.getValue(), pointer + "/" + field.getKey(), strings));
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectStrings(node.get(i), pointer + "/" + i, strings);
            }
        }
    }

    /** The controller role's ARN annotation replaced by "<role>", for comparing the rest of the values literally. */
    private static void withRolePlaceholder(ObjectNode values) {
        values.withObjectProperty("serviceAccount")
                .withObjectProperty("annotations")
                .put("eks.amazonaws.com/role-arn", "<role>");
    }
}
