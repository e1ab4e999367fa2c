package dev.platform.karpenter.testing.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The typed check rejects, for every core kind the charts render, a field the kind does not have and a value of the
 * wrong type, and accepts the objects as rendered. The objects come from the upstream v0.30.0 chart, which renders
 * every core kind this project meets (webhooks included), plus the Job of the node pools' uninstall hook.
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class CoreObjectsTest {
    private static final List<JsonNode> RENDERED = HelmRender.template(
            UpstreamCharts.chart("v0.30.0", UpstreamCharts.CONTROLLER_CHART),
            "karpenter",
            "karpenter",
            "settings: {aws: {clusterName: demo}}\n");
    private static final JsonNode JOB = HelmRender.parse("""
            apiVersion: batch/v1
            kind: Job
            metadata: {name: uninstall, namespace: karpenter}
            spec:
              backoffLimit: 2
              template:
                spec:
                  restartPolicy: Never
                  containers: [{name: kubectl, image: "public.ecr.aws/bitnami/kubectl:1.27", command: [kubectl, version]}]
            """).get(0);

    /** One wrong-typed value per kind, as a user or a template mistake would write it. */
    private static final Map<String, Consumer<ObjectNode>> WRONG_TYPE = Map.ofEntries(
            Map.entry("Deployment", o -> ((ObjectNode) o.path("spec")).put("replicas", "2")),
            Map.entry(
                    "ServiceAccount",
                    o -> ((ObjectNode) o.path("metadata"))
                            .putObject("annotations")
                            .put("eks.amazonaws.com/sts-regional-endpoints", true)),
            Map.entry("ConfigMap", o -> o.putObject("data").put("batchMaxDuration", 10)),
            Map.entry("Secret", o -> o.put("immutable", "yes")),
            Map.entry("Service", o -> ((ObjectNode) o.at("/spec/ports/0")).put("port", "8000")),
            Map.entry(
                    "PodDisruptionBudget",
                    o -> ((ObjectNode) o.path("spec")).putArray("selector").add("karpenter")),
            Map.entry("ClusterRole", o -> ((ObjectNode) o.at("/rules/0")).put("verbs", "get")),
            Map.entry("ClusterRoleBinding", o -> o.put("roleRef", "karpenter")),
            Map.entry("Role", o -> ((ObjectNode) o.at("/rules/0")).put("apiGroups", 1)),
            Map.entry(
                    "RoleBinding",
                    o -> ((ObjectNode) o.at("/subjects/0")).putArray("name").add("karpenter")),
            Map.entry(
                    "MutatingWebhookConfiguration",
                    o -> ((ObjectNode) o.at("/webhooks/0")).put("timeoutSeconds", "10")),
            Map.entry("ValidatingWebhookConfiguration", o -> ((ObjectNode) o.at("/webhooks/0")).put("sideEffects", 0)),
            Map.entry("Job", o -> ((ObjectNode) o.path("spec")).put("backoffLimit", true)),
            Map.entry("CustomResourceDefinition", o -> ((ObjectNode) o.path("spec")).put("versions", "v1")));

    static Stream<Arguments> objects() {
        List<JsonNode> crds = UpstreamCharts.crds("v0.30.0");
        return Stream.concat(Stream.concat(RENDERED.stream(), Stream.of(JOB)), Stream.of(crds.get(0)))
                .map(o -> Arguments.of(HelmRender.describe(o), o));
    }

    @Test
    void theRenderedObjectsCoverEveryKindWithAWrongTypeCase() {
        assertThat(objects()
                        .map(a -> ((JsonNode) a.get()[1]).path("kind").asText())
                        .distinct())
                .containsExactlyInAnyOrderElementsOf(WRONG_TYPE.keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("objects")
    void acceptsTheObjectAsRendered(String name, JsonNode object) {
        assertThat(CoreObjects.errors(object)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("objects")
    void rejectsAFieldTheKindDoesNotHave(String name, JsonNode object) {
        ObjectNode root = object.deepCopy();
        root.put("specs", "x");
        assertThat(CoreObjects.errors(root)).singleElement().asString().contains("specs");
        ObjectNode inMetadata = object.deepCopy();
        ((ObjectNode) inMetadata.path("metadata")).put("label", "x");
        assertThat(CoreObjects.errors(inMetadata)).singleElement().asString().contains("label");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("objects")
    void rejectsAValueOfTheWrongType(String name, JsonNode object) {
        ObjectNode bad = object.deepCopy();
        WRONG_TYPE.get(object.path("kind").asText()).accept(bad);
        assertThat(CoreObjects.errors(bad)).isNotEmpty();
    }

    @Test
    void aKindWithoutATypedModelIsAnError() {
        JsonNode monitor = HelmRender.parse(
                        "{apiVersion: monitoring.coreos.com/v1, kind: ServiceMonitor, metadata: {name: k}}")
                .get(0);
        assertThat(CoreObjects.errors(monitor))
                .containsExactly("no typed model for monitoring.coreos.com/v1 ServiceMonitor");
    }
}
