package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.nodepools.manifest.Rendered.spec;
import static dev.platform.karpenter.nodepools.manifest.V1Alpha5ManifestsTest.taints;
import static dev.platform.karpenter.nodepools.manifest.V1Alpha5ManifestsTest.volumes;
import static dev.platform.karpenter.testing.Json.MISSING;
import static dev.platform.karpenter.testing.Json.at;
import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Karpenter 1.x: upstream's NodePool and EC2NodeClass "default", from the settings. */
class V1ManifestsTest {
    static final List<JsonNode> DEFAULTS = Rendered.of(config(V1));
    static final List<JsonNode> CUSTOM = Rendered.of(config(V1, """
            ami_family = "AL2023"
            discovery_tag_key = "example.com/karpenter"
            capacity_types = ["spot"]
            architectures = ["arm64"]
            instance_categories = ["m"]
            instance_generation_min = 7
            cpu_limit = 16
            memory_limit = "64Gi"
            consolidation = false
            consolidate_after = "10m"
            expire_after = "Never"
            node_labels = { team = "platform" }
            node_taints = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]
            node_requirements = [{ key = "karpenter.k8s.aws/instance-cpu", operator = "Lt", values = ["33"] }]
            node_pools = [{ name = "on-demand", capacity_types = ["on-demand"], consolidation = true }]
            """));

    @Test
    void rendersOneNodePoolAndTheNodeClassItReferences() {
        assertThat(Rendered.identities(DEFAULTS))
                .containsExactly("karpenter.sh/v1 NodePool default", "karpenter.k8s.aws/v1 EC2NodeClass default");
        JsonNode ref = spec(DEFAULTS, "NodePool", "default")
                .path("template")
                .path("spec")
                .path("nodeClassRef");
        assertThat(ref.path("group").asText()).isEqualTo("karpenter.k8s.aws");
        assertThat(ref.path("kind").asText()).isEqualTo("EC2NodeClass");
        assertThat(ref.path("name").asText()).isEqualTo("default");
    }

    /** Upstream's limits and expiry; consolidation of underutilized nodes after a minute; no labels, no metadata. */
    @Test
    void theDefaultNodePoolHasUpstreamsLimitsExpiryAndConsolidation() {
        JsonNode spec = spec(DEFAULTS, "NodePool", "default");

        assertThat(at(
                        spec,
                        "/limits/cpu",
                        "/limits/memory",
                        "/template/spec/expireAfter",
                        "/template/metadata",
                        "/template/spec/taints",
                        "/disruption/consolidationPolicy",
                        "/disruption/consolidateAfter"))
                .containsExactly("1000", "1000Gi", "720h", MISSING, MISSING, "WhenEmptyOrUnderutilized", "1m");
    }

    @Test
    void theNodeClassNamesTheNodeRoleTheBottlerocketAliasAndVolumes() {
        JsonNode spec = spec(DEFAULTS, "EC2NodeClass", "default");

        assertThat(spec.path("role").asText()).isEqualTo(Rendered.ROLE);
        assertThat(spec.has("instanceProfile")).isFalse();
        assertThat(spec.path("amiSelectorTerms")).hasSize(1);
        assertThat(spec.path("amiSelectorTerms").get(0).path("alias").asText()).isEqualTo("bottlerocket@latest");
        assertThat(spec.has("amiFamily")).as("the alias implies the family").isFalse();
        for (String selector : List.of("subnetSelectorTerms", "securityGroupSelectorTerms")) {
            assertThat(spec.path(selector)).as(selector).hasSize(1);
            assertThat(spec.path(selector).get(0).path("tags").properties())
                    .as(selector)
                    .singleElement()
                    .satisfies(e -> assertThat(e.getKey() + "=" + e.getValue().asText())
                            .isEqualTo("karpenter.sh/discovery=demo"));
        }
        assertThat(volumes(spec))
                .containsExactly(
                        "/dev/xvda gp3 4Gi encrypted deleteOnTermination",
                        "/dev/xvdb gp3 20Gi encrypted deleteOnTermination");
    }

    @Test
    void customSettingsReachEveryField() {
        JsonNode spec = spec(CUSTOM, "NodePool", "default");

        assertThat(at(
                        spec,
                        "/limits/cpu",
                        "/limits/memory",
                        "/disruption/consolidationPolicy",
                        "/disruption/consolidateAfter",
                        "/template/spec/expireAfter",
                        "/template/metadata/labels"))
                .containsExactly("16", "64Gi", "WhenEmpty", "10m", "Never", "{\"team\":\"platform\"}");
        assertThat(taints(spec.at("/template/spec/taints"))).containsExactly("dedicated=batch:NoSchedule");
    }

    @Test
    void customNodeClassUsesTheAl2023AliasAndTagWithoutBottlerocketVolumes() {
        JsonNode spec = spec(CUSTOM, "EC2NodeClass", "default");

        String selector = "[{\"tags\":{\"example.com/karpenter\":\"demo\"}}]";
        assertThat(at(
                        spec,
                        "/amiSelectorTerms",
                        "/subnetSelectorTerms",
                        "/securityGroupSelectorTerms",
                        "/blockDeviceMappings"))
                .containsExactly("[{\"alias\":\"al2023@latest\"}]", selector, selector, MISSING);
    }

    @Test
    void extraPoolsBecomeNodePoolsOfTheSameNodeClass() {
        JsonNode spec = spec(CUSTOM, "NodePool", "on-demand");

        // consolidateAfter is inherited from the top-level settings.
        assertThat(at(
                        spec,
                        "/template/spec/nodeClassRef/name",
                        "/disruption/consolidationPolicy",
                        "/disruption/consolidateAfter"))
                .containsExactly("default", "WhenEmptyOrUnderutilized", "10m");
        assertThat(CUSTOM).hasSize(3);
    }

    @Test
    void al2UsesItsAlias() {
        JsonNode spec = spec(config(V1, "ami_family = \"AL2\""), "EC2NodeClass", "default");

        assertThat(spec.path("amiSelectorTerms").get(0).path("alias").asText()).isEqualTo("al2@latest");
    }

    @Test
    void aPinnedAmiReleaseGoesIntoTheAlias() {
        JsonNode spec =
                spec(config(V1, "ami_family = \"AL2023\"", "ami_version = \"v20240625\""), "EC2NodeClass", "default");

        assertThat(spec.path("amiSelectorTerms").get(0).path("alias").asText()).isEqualTo("al2023@v20240625");
    }

    @Test
    void theNodeClassTagsEverythingKarpenterLaunches() {
        JsonNode spec = spec(config(V1, "tags = { Team = \"platform\" }"), "EC2NodeClass", "default");

        assertThat(spec.path("tags").size()).isEqualTo(1);
        assertThat(spec.path("tags").path("Team").asText()).isEqualTo("platform");
        assertThat(spec(config(V1), "EC2NodeClass", "default").has("tags")).isFalse();
    }

    @Test
    void needsNoUninstallHookAsTheNodeClassFinalizerWaitsForTheNodes() {
        assertThat(NodePoolManifests.forApis(config(V1).apis())
                        .uninstallHook(config(V1).poolsAndClasses(), "karpenter", 900))
                .isEmpty();
    }

    @Test
    void thePlainFileIsNamedAfterTheNodePool() {
        assertThat(NodePoolManifests.forApis(config(V1).apis()).plainFileName()).isEqualTo("nodepool.yaml");
    }
}
