package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Karpenter 0.32-0.37: v1beta1 objects, the 0.32 transition beside v1alpha5, validity against the real CRDs (with CEL). */
@KernelOnlyThroughSynthesized
class V1Beta1ManifestsTest {
    private static final String[] EVERY_SETTING = PoolSettingsExamples.EVERY_V0_SETTING;

    static Stream<Arguments> releases() {
        return Stream.of(
                Arguments.of("v0.32.10", "v0.32.10 defaults, Provisioners kept", config("v0.32.10")),
                Arguments.of(
                        "v0.32.10", "v0.32.10 every setting, Provisioners kept", config("v0.32.10", EVERY_SETTING)),
                Arguments.of("v0.32.10", "v0.32.10 retired", config("v0.32.10", "retired_api = \"v1alpha5\"")),
                Arguments.of("v0.37.8", "0.37.8 defaults", config("0.37.8")),
                Arguments.of(
                        "v0.37.8",
                        "0.37.8 every setting",
                        config(
                                "0.37.8",
                                "ami_family = \"AL2023\"",
                                "consolidation = false",
                                "consolidate_after = \"10m\"",
                                "expire_after = \"Never\"",
                                "node_labels = { team = \"platform\" }",
                                "node_pools = [{ name = \"od\", capacity_types = [\"on-demand\"] }]")));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("releases")
    @NeedsUpstreamMirror
    void everyObjectMatchesTheCrdOfItsRelease(String chartTag, String caseName, ClusterConfig config) {
        List<JsonNode> documents = Rendered.of(config);

        assertThat(documents).isNotEmpty();
        for (JsonNode document : documents) {
            assertThat(UpstreamCharts.crdValidator(chartTag).errors(document))
                    .as(document.path("apiVersion").asText() + " "
                            + document.path("kind").asText())
                    .isEmpty();
        }
    }

    @Test
    void at032TheProvisionersStayBesideTheirConvertedNodePools() {
        List<JsonNode> documents =
                Rendered.of(config("v0.32.10", "node_pools = [{ name = \"batch\", cpu_limit = 4 }]"));

        assertThat(Rendered.identities(documents))
                .containsExactly(
                        "karpenter.sh/v1alpha5 Provisioner default",
                        "karpenter.sh/v1alpha5 Provisioner batch",
                        "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate default",
                        "karpenter.sh/v1beta1 NodePool default",
                        "karpenter.sh/v1beta1 NodePool batch",
                        "karpenter.k8s.aws/v1beta1 EC2NodeClass default");
        assertThat(Rendered.of(config("v0.32.10", "retired_api = \"v1alpha5\"")))
                .extracting(d -> d.path("kind").asText())
                .containsExactly("NodePool", "EC2NodeClass");
    }

    @Test
    void conversionFollowsUpstreamsRules() {
        List<JsonNode> documents = Rendered.of(config("v0.32.10", EVERY_SETTING));
        JsonNode provisioner = Rendered.find(documents, "Provisioner", "default");
        JsonNode nodePool = Rendered.find(documents, "NodePool", "default");

        // requirements, labels and taints carried over as they are, every webhook default already written out
        assertThat(nodePool.at("/spec/template/spec/requirements")).isEqualTo(provisioner.at("/spec/requirements"));
        assertThat(nodePool.at("/spec/template/metadata/labels")).isEqualTo(provisioner.at("/spec/labels"));
        assertThat(nodePool.at("/spec/template/spec/taints")).isEqualTo(provisioner.at("/spec/taints"));
        assertThat(nodePool.at("/spec/limits")).isEqualTo(provisioner.at("/spec/limits/resources"));
        // ttlSecondsAfterEmpty 30 becomes WhenEmpty after 30s; no ttlSecondsUntilExpired becomes Never
        assertThat(nodePool.at("/spec/disruption").toString())
                .isEqualTo(
                        "{\"consolidationPolicy\":\"WhenEmpty\",\"consolidateAfter\":\"30s\",\"expireAfter\":\"Never\"}");
        assertThat(nodePool.at("/spec/template/spec/nodeClassRef").toString())
                .isEqualTo(
                        "{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"name\":\"default\"}");

        JsonNode template = Rendered.find(documents, "AWSNodeTemplate", "default");
        JsonNode nodeClass = Rendered.find(documents, "EC2NodeClass", "default");
        assertThat(nodeClass.at("/spec/amiFamily").asText())
                .isEqualTo(template.at("/spec/amiFamily").asText())
                .isEqualTo("AL2");
        // the default instance profile becomes the role it holds; selectors become selector terms
        assertThat(nodeClass.at("/spec/role").asText()).isEqualTo(Rendered.ROLE);
        assertThat(nodeClass.at("/spec/subnetSelectorTerms/0/tags")).isEqualTo(template.at("/spec/subnetSelector"));
        assertThat(nodeClass.at("/spec/securityGroupSelectorTerms/0/tags"))
                .isEqualTo(template.at("/spec/securityGroupSelector"));
    }

    /** In the 0.32 transition both objects remove empty nodes after the one delay written for them. */
    @Test
    void consolidateAfterWithoutConsolidationReachesTheProvisionerToo() {
        List<JsonNode> documents =
                Rendered.of(config("v0.32.10", "consolidation = false", "consolidate_after = \"1m30s\""));

        assertThat(Rendered.find(documents, "NodePool", "default")
                        .at("/spec/disruption/consolidateAfter")
                        .asText())
                .isEqualTo("1m30s");
        assertThat(Rendered.find(documents, "Provisioner", "default")
                        .at("/spec/ttlSecondsAfterEmpty")
                        .asInt())
                .isEqualTo(90);
        assertThat(Rendered.find(
                                Rendered.of(
                                        config("v0.32.10", "consolidation = false", "consolidate_after = \"Never\"")),
                                "Provisioner",
                                "default")
                        .has("ttlSecondsAfterEmpty"))
                .isFalse();
    }

    @Test
    void consolidationBecomesWhenUnderutilizedWithExpiryUnderDisruption() {
        JsonNode nodePool = Rendered.find(Rendered.of(config("0.37.8")), "NodePool", "default");

        assertThat(nodePool.at("/spec/disruption").toString())
                .isEqualTo("{\"consolidationPolicy\":\"WhenUnderutilized\",\"expireAfter\":\"720h\"}");
        assertThat(Rendered.find(Rendered.of(config("0.37.8")), "EC2NodeClass", "default")
                        .at("/spec/blockDeviceMappings"))
                .hasSize(2);
    }

    @Test
    @NeedsUpstreamMirror
    void theSchemasRejectWhatKarpenterWouldReject() {
        JsonNode nodePool = Rendered.find(Rendered.of(config("0.37.8")), "NodePool", "default");
        ObjectNode wrongPolicy = nodePool.deepCopy();
        ((ObjectNode) wrongPolicy.at("/spec/disruption")).put("consolidationPolicy", "WhenEmptyOrUnderutilized");
        assertThat(UpstreamCharts.crdValidator("v0.37.8").errors(wrongPolicy)).isNotEmpty();

        ObjectNode v1Field = nodePool.deepCopy();
        ((ObjectNode) v1Field.at("/spec/template/spec")).put("expireAfter", "720h");
        assertThat(UpstreamCharts.crdValidator("v0.37.8").errors(v1Field)).isNotEmpty();
    }
}
