package dev.platform.karpenter.controller;

import static dev.platform.karpenter.controller.RenderedControllerReleases.IRSA;
import static dev.platform.karpenter.controller.RenderedControllerReleases.NAMESPACE;
import static dev.platform.karpenter.controller.RenderedControllerReleases.POD_IDENTITY;
import static dev.platform.karpenter.controller.RenderedControllerReleases.SERVICE_ACCOUNT;
import static dev.platform.karpenter.testing.kubernetes.HelmRender.find;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.platform.karpenter.controller.RenderedControllerReleases.Cluster;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.kubernetes.CoreObjects;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The upstream karpenter chart of every supported family, rendered by real Helm with the values the app
 * synthesizes: what the controller pod, its settings and its service account really receive.
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class ControllerChartRenderTest {
    private static final YAMLMapper YAML = Json.yamlMapper();
    private static final String ENDPOINT = "<tf:data\\.aws_eks_cluster\\.[A-Za-z0-9_-]+\\.endpoint>";

    /** Each cluster's controller chart rendered once with its synthesized values. */
    private static final Map<Cluster, List<JsonNode>> RENDERED = new LinkedHashMap<>();

    static {
        Stream.concat(IRSA.values().stream(), POD_IDENTITY.values().stream())
                .forEach(cluster -> RENDERED.put(cluster, cluster.renderController(cluster.values())));
    }

    /** The controller chart of {@code cluster} as rendered for these tests. */
    static List<JsonNode> rendered(Cluster cluster) {
        return RENDERED.get(cluster);
    }

    static List<Cluster> irsa() {
        return List.copyOf(IRSA.values());
    }

    static List<Cluster> podIdentity() {
        return List.copyOf(POD_IDENTITY.values());
    }

    static List<Cluster> allClusters() {
        return List.copyOf(RENDERED.keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("irsa")
    void theControllerReceivesTheClusterItsEndpointAndTheInterruptionQueue(Cluster cluster) {
        List<JsonNode> objects = RENDERED.get(cluster);
        if (cluster.config().release().apiGeneration() != ApiGeneration.V1ALPHA5) {
            Map<String, String> env = env(controller(objects));
            assertThat(env.get("CLUSTER_NAME")).isEqualTo(cluster.clusterName());
            assertThat(env.get("CLUSTER_ENDPOINT")).matches(ENDPOINT);
            assertThat(cluster.produced(env.get("INTERRUPTION_QUEUE"))).matches(queue(cluster));
        } else {
            JsonNode settings =
                    find(objects, "ConfigMap", "karpenter-global-settings").path("data");
            assertThat(settings.path("aws.clusterName").textValue()).isEqualTo(cluster.clusterName());
            assertThat(settings.path("aws.clusterEndpoint").textValue()).matches(ENDPOINT);
            assertThat(cluster.produced(
                            settings.path("aws.interruptionQueueName").textValue()))
                    .matches(queue(cluster));
            assertThat(env(controller(objects))).doesNotContainKeys("CLUSTER_NAME", "INTERRUPTION_QUEUE");
        }
        // Where v1alpha5 pools are declared (0.30, 0.31; 0.32 beside v1beta1), their nodes take the profile from the
        // settings ConfigMap.
        if (cluster.config().apis().rendered().contains(ApiGeneration.V1ALPHA5)) {
            JsonNode settings =
                    find(objects, "ConfigMap", "karpenter-global-settings").path("data");
            assertThat(cluster.produced(
                            settings.path("aws.defaultInstanceProfile").textValue()))
                    .matches(cluster.clusterName() + "-iam: aws_iam_instance_profile\\.[^.]+\\.name");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("irsa")
    void underIrsaTheServiceAccountCarriesTheRoleArnAndTheStsAnnotationAsAString(Cluster cluster) {
        List<JsonNode> objects = RENDERED.get(cluster);
        JsonNode account = find(objects, "ServiceAccount", SERVICE_ACCOUNT);
        assertThat(account.at("/metadata/namespace").asText()).isEqualTo(NAMESPACE);
        JsonNode annotations = account.at("/metadata/annotations");
        assertThat(names(annotations))
                .containsExactlyInAnyOrder("eks.amazonaws.com/role-arn", "eks.amazonaws.com/sts-regional-endpoints");
        assertThat(cluster.produced(
                        annotations.path("eks.amazonaws.com/role-arn").textValue()))
                .matches(cluster.clusterName() + "-iam: aws_iam_role\\.[^.]+\\.arn");
        assertRegionalStsForThePodsAccount(objects, annotations);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podIdentity")
    void underPodIdentityTheServiceAccountHasNoRoleAnnotation(Cluster cluster) {
        List<JsonNode> objects = RENDERED.get(cluster);
        JsonNode annotations = find(objects, "ServiceAccount", SERVICE_ACCOUNT).at("/metadata/annotations");
        assertThat(names(annotations)).containsExactly("eks.amazonaws.com/sts-regional-endpoints");
        assertRegionalStsForThePodsAccount(objects, annotations);
    }

    /** The account asks for regional STS endpoints (the string "true"), and the controller's pods run as it. */
    private static void assertRegionalStsForThePodsAccount(List<JsonNode> objects, JsonNode accountAnnotations) {
        assertThat(accountAnnotations
                        .path("eks.amazonaws.com/sts-regional-endpoints")
                        .isTextual())
                .isTrue();
        assertThat(accountAnnotations
                        .path("eks.amazonaws.com/sts-regional-endpoints")
                        .textValue())
                .isEqualTo("true");
        assertThat(deployment(objects)
                        .at("/spec/template/spec/serviceAccountName")
                        .asText())
                .isEqualTo(SERVICE_ACCOUNT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allClusters")
    void thePodsGetTheReplicasResourcesTolerationsAndAnAffinityThatKeepsThemOffKarpentersNodes(Cluster cluster) {
        JsonNode deployment = deployment(RENDERED.get(cluster));
        assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(controller(RENDERED.get(cluster)).path("resources")).isEqualTo(yaml("""
                requests: {cpu: "1", memory: 1Gi}
                limits: {cpu: "1", memory: 1Gi}
                """));
        JsonNode pod = deployment.at("/spec/template/spec");
        assertThat(pod.path("tolerations")).isEqualTo(yaml("""
                - {key: CriticalAddonsOnly, operator: Exists}
                - {key: dedicated, operator: Equal, value: "true", effect: NoSchedule}
                """));
        pod.path("tolerations")
                .forEach(t -> t.forEach(
                        v -> assertThat(v.isTextual()).as(t.toString()).isTrue()));

        JsonNode terms =
                pod.at("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms");
        assertThat(terms).isNotEmpty();
        for (JsonNode term : terms) {
            assertThat(term.path("matchExpressions"))
                    .contains(yaml("{key: eks.amazonaws.com/nodegroup, operator: In, values: [default]}"));
            for (ApiGeneration generation : cluster.config().apis().rendered()) {
                assertThat(term.path("matchExpressions"))
                        .contains(yaml("{key: " + generation.poolLabel() + ", operator: DoesNotExist}"));
            }
        }
        // The chart's spreading of replicas over nodes survives the app's node affinity.
        assertSpreadOverNodes(pod);
    }

    /** Without controller_affinity the app sets no affinity, and the chart's own keeps the pods off Karpenter's nodes. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("irsa")
    void withoutControllerAffinityTheChartsOwnKeepsThePodsOffKarpentersNodes(Cluster cluster) {
        ObjectNode values = (ObjectNode) yaml(cluster.values());
        values.remove("affinity");
        JsonNode pod = deployment(cluster.renderController(write(values))).at("/spec/template/spec");
        JsonNode terms =
                pod.at("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms");
        assertThat(terms).hasSize(1);
        assertThat(terms.get(0).path("matchExpressions"))
                .contains(yaml("{key: "
                        + cluster.config().release().apiGeneration().poolLabel() + ", operator: DoesNotExist}"));
        assertSpreadOverNodes(pod);
    }

    /**
     * Nothing is set that changes nothing: without any one of the app's value keys, the chart renders otherwise. The
     * IRSA clusters set every key the Pod Identity ones do, and more.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("irsa")
    void theChartReadsEveryValueKeyTheAppSets(Cluster cluster) {
        ObjectNode values = (ObjectNode) yaml(cluster.values());
        List<JsonNode> full = RENDERED.get(cluster);
        assertThat(cluster.renderController(cluster.values()))
                .as("rendering is deterministic")
                .isEqualTo(full);
        List<String> leaves = leaves(values, "");
        assertThat(leaves)
                .contains(
                        "/replicas",
                        "/serviceAccount/name",
                        "/tolerations",
                        "/affinity/nodeAffinity" + "/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms");
        for (String leaf : leaves) {
            ObjectNode without = values.deepCopy();
            int cut = leaf.lastIndexOf('/');
            ((ObjectNode) without.at(leaf.substring(0, cut)))
                    .remove(leaf.substring(cut + 1).replace("~1", "/"));
            assertThat(renderOrFailure(cluster, write(without)))
                    .as("rendered without " + leaf)
                    .isNotEqualTo(full);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allClusters")
    void everyRenderedObjectDecodesStrictlyAsItsKubernetesType(Cluster cluster) {
        List<JsonNode> objects = RENDERED.get(cluster);
        assertThat(objects).hasSizeGreaterThan(10);
        for (JsonNode object : objects) {
            assertThat(CoreObjects.errors(object))
                    .as(HelmRender.describe(object))
                    .isEmpty();
        }
    }

    private static String queue(Cluster cluster) {
        return cluster.clusterName() + "-interruption: aws_sqs_queue\\.[^.]+\\.name";
    }

    /** The objects, or the chart's refusal to render (a required value missing is a difference too). */
    private static Object renderOrFailure(Cluster cluster, String values) {
        try {
            return cluster.renderController(values);
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    static JsonNode deployment(List<JsonNode> objects) {
        return find(objects, "Deployment", "karpenter");
    }

    static JsonNode controller(List<JsonNode> objects) {
        for (JsonNode container : deployment(objects).at("/spec/template/spec/containers")) {
            if (container.path("name").asText().equals("controller")) {
                return container;
            }
        }
        throw new AssertionError("no controller container");
    }

    /** The chart's pod anti-affinity keeps the controller's replicas on different nodes. */
    private static void assertSpreadOverNodes(JsonNode pod) {
        assertThat(pod.at("/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/0/topologyKey")
                        .asText())
                .isEqualTo("kubernetes.io/hostname");
    }

    /** The container's environment variables by name. */
    static Map<String, String> env(JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        container
                .path("env")
                .forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
        return env;
    }

    /** Paths of the values' scalars and lists: each is one key the app sets. */
    private static List<String> leaves(JsonNode node, String path) {
        List<String> leaves = new ArrayList<>();
        if (node.isObject() && !node.isEmpty()) {
            node.fields()
                    .forEachRemaining(f -> leaves.addAll(
                            leaves(f.getValue(), path + "/" + f.getKey().replace("/", "~1"))));
        } else {
            leaves.add(path);
        }
        return leaves;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static JsonNode yaml(String text) {
        return Json.yaml(text);
    }

    private static String write(JsonNode values) {
        try {
            return YAML.writeValueAsString(values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
