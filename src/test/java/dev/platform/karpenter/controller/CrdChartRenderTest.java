package dev.platform.karpenter.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.controller.RenderedControllerReleases.Cluster;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.CoreObjects;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The karpenter-crd release of every supported family rendered by real Helm as the app installs it, compared with
 * the CRDs the controller chart ships in crds/ (which the controller release skips).
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class CrdChartRenderTest {
    private static final Map<Cluster, List<JsonNode>> RENDERED = new LinkedHashMap<>();

    static {
        RenderedControllerReleases.IRSA.values().forEach(cluster -> RENDERED.put(cluster, cluster.renderCrds()));
    }

    static List<Cluster> clusters() {
        return List.copyOf(RENDERED.keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void theCrdReleaseInstallsExactlyTheControllerChartsCrds(Cluster cluster) {
        Map<String, JsonNode> rendered = byName(RENDERED.get(cluster));
        Map<String, JsonNode> shipped = new TreeMap<>();
        for (Path file : UpstreamCharts.controllerChartCrds(cluster.tag())) {
            shipped.putAll(byName(HelmRender.parse(read(file))));
        }
        assertThat(rendered.keySet()).containsExactlyElementsOf(shipped.keySet());
        assertThat(rendered.keySet())
                .containsAll(
                        cluster.config().release().apiGeneration() == ApiGeneration.V1ALPHA5
                                ? List.of(
                                        "awsnodetemplates.karpenter.k8s.aws",
                                        "machines.karpenter.sh",
                                        "provisioners.karpenter.sh")
                                : List.of(
                                        "ec2nodeclasses.karpenter.k8s.aws",
                                        "nodeclaims.karpenter.sh",
                                        "nodepools.karpenter.sh"));
        shipped.forEach((name, crd) ->
                assertThat(comparable(rendered.get(name))).as(name).isEqualTo(comparable(crd)));
    }

    /**
     * Where a CRD converts between versions through the controller's webhook (1.0), the CRD release points at the
     * controller's Service and port in the release's namespace (the controller chart's crds/ hard-code kube-system).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void conversionWebhooksPointAtTheControllersServiceInTheReleaseNamespace(Cluster cluster) {
        List<JsonNode> controller = ControllerChartRenderTest.rendered(cluster);
        for (JsonNode crd : RENDERED.get(cluster)) {
            JsonNode service = crd.at("/spec/conversion/webhook/clientConfig/service");
            if (service.isMissingNode()) {
                continue;
            }
            assertThat(service.path("namespace").asText())
                    .isEqualTo(cluster.release("karpenter").path("namespace").asText());
            JsonNode target =
                    HelmRender.find(controller, "Service", service.path("name").asText());
            assertThat(target.at("/metadata/namespace").asText())
                    .isEqualTo(service.path("namespace").asText());
            assertThat(target.at("/spec/ports").findValuesAsText("port"))
                    .contains(service.path("port").asText());
        }
    }

    /** On 1.0, controller values that rename the controller's Service or move its webhook port move the CRDs' target. */
    @Test
    void theConversionWebhookFollowsARenamedServiceAndAMovedPort() {
        String tag = "v1.0.14";
        ClusterConfig moved = TestConfigs.config(
                UpstreamCharts.chartVersion(tag),
                "controller_values = { nameOverride = \"kp\", webhook = { port = 9443 } }");
        Synthesized synthesized = Synthesized.of(moved);
        Cluster cluster = new Cluster(
                tag,
                moved.clusterName(),
                moved,
                synthesized.stack(moved.stackName(ControllerStack.CONCERN)),
                synthesized);
        List<JsonNode> controller = cluster.renderController(cluster.values());
        List<JsonNode> crds = cluster.renderCrds();

        JsonNode target = crds.stream()
                .map(crd -> crd.at("/spec/conversion/webhook/clientConfig/service"))
                .filter(service -> !service.isMissingNode())
                .findFirst()
                .orElseThrow();
        assertThat(target.path("name").asText()).isEqualTo("karpenter-kp");
        assertThat(target.path("port").asInt()).isEqualTo(9443);
        JsonNode service = HelmRender.find(controller, "Service", "karpenter-kp");
        assertThat(service.at("/spec/ports").findValuesAsText("port")).contains("9443");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void everyCrdDecodesStrictlyAsACustomResourceDefinition(Cluster cluster) {
        for (JsonNode crd : RENDERED.get(cluster)) {
            assertThat(crd.path("kind").asText()).isEqualTo("CustomResourceDefinition");
            assertThat(CoreObjects.errors(crd)).as(HelmRender.describe(crd)).isEmpty();
        }
    }

    /**
     * Every key the CRD release sets (1.0: the conversion webhook's service namespace) is read by the chart: the
     * same key with another value renders otherwise.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clusters")
    void theCrdChartReadsEveryValueTheReleaseSets(Cluster cluster) {
        String values = cluster.crdValues();
        assertThat(values.isEmpty()).isEqualTo(!cluster.tag().startsWith("v1.0."));
        if (values.isEmpty()) {
            return;
        }
        JsonNode tree = Json.yaml(values);
        assertThat(tree.at("/webhook/serviceNamespace").asText())
                .isEqualTo(cluster.release("karpenter").path("namespace").asText());
        ((ObjectNode) tree.path("webhook")).put("serviceNamespace", "elsewhere");
        assertThat(cluster.renderCrds(tree.toString())).isNotEqualTo(RENDERED.get(cluster));
    }

    /** The CRD without the conversion webhook's namespace, which the CRD chart templates for its release. */
    private static JsonNode comparable(JsonNode crd) {
        ObjectNode copy = crd.deepCopy();
        if (copy.at("/spec/conversion/webhook/clientConfig/service") instanceof ObjectNode service) {
            service.remove("namespace");
        }
        return copy;
    }

    private static Map<String, JsonNode> byName(List<JsonNode> objects) {
        Map<String, JsonNode> byName = new TreeMap<>();
        objects.forEach(o -> byName.put(o.at("/metadata/name").asText(), o));
        return byName;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Beside EKS Auto Mode the CRDs are shared with it: every one the CRD release renders carries Helm's keep
     * policy, so that uninstalling the release (the migration's last step) leaves them and their objects.
     */
    @Test
    void besideAutoModeTheCrdsOutliveTheRelease() {
        ClusterConfig besideAutoMode =
                TestConfigs.config(UpstreamCharts.chartVersion(UpstreamCharts.NEWEST), "beside_auto_mode = true");
        JsonNode release = Synthesized.of(besideAutoMode)
                .stack(besideAutoMode.stackName(ControllerStack.CONCERN))
                .path("resource")
                .path("helm_release")
                .path("karpenter_crd");

        List<JsonNode> crds = HelmRender.template(
                UpstreamCharts.chart(
                        UpstreamCharts.NEWEST, release.path("chart").asText()),
                release.path("name").asText(),
                release.path("namespace").asText(),
                release.path("values").get(0).asText());

        assertThat(crds)
                .isNotEmpty()
                .allSatisfy(crd -> assertThat(crd.at("/metadata/annotations")
                                .path("helm.sh/resource-policy")
                                .asText())
                        .isEqualTo("keep"));
        // without it, the release keeps Helm's default: its CRDs go with it
        ClusterConfig alone = TestConfigs.config(UpstreamCharts.chartVersion(UpstreamCharts.NEWEST));
        assertThat(Synthesized.of(alone)
                        .stack(alone.stackName(ControllerStack.CONCERN))
                        .at("/resource/helm_release/karpenter_crd")
                        .has("values"))
                .isFalse();
    }
}
