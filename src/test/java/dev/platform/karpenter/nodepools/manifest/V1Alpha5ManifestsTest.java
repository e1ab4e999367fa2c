package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.nodepools.manifest.Rendered.spec;
import static dev.platform.karpenter.testing.Json.MISSING;
import static dev.platform.karpenter.testing.Json.at;
import static dev.platform.karpenter.testing.Json.texts;
import static dev.platform.karpenter.testing.TestConfigs.V0;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Karpenter 0.x: the seed's Provisioner and AWSNodeTemplate "default", from the settings. */
@KernelOnlyThroughSynthesized
class V1Alpha5ManifestsTest {
    private static final String SHARED_VPC = "{\"karpenter.sh/discovery\":\"shared-vpc\"}";
    static final List<JsonNode> DEFAULTS = Rendered.of(config(V0));
    static final List<JsonNode> CUSTOM = Rendered.of(config(
            V0,
            "ami_family = \"AL2\"",
            "discovery_tag_value = \"shared-vpc\"",
            "capacity_types = [\"on-demand\"]",
            "instance_categories = []",
            "instance_generation_min = 6",
            "cpu_limit = 32",
            "memory_limit = \"128Gi\"",
            "consolidation = false",
            "ttl_seconds_after_empty = 45",
            "expire_after = \"1h30m\"",
            "node_labels = { team = \"platform\" }",
            "node_taints = [{ key = \"dedicated\", value = \"batch\", effect = \"NoSchedule\" }, { key = \"gpu\", effect = \"NoExecute\" }]",
            "node_requirements = [{ key = \"karpenter.k8s.aws/instance-size\", operator = \"NotIn\", values = [\"metal\"] },"
                    + " { key = \"example.com/spare\", operator = \"DoesNotExist\" }]",
            "node_pools = [{ name = \"batch\", capacity_types = [\"spot\"], cpu_limit = 8 }]"));

    @Test
    void rendersOneProvisionerAndTheNodeTemplateItReferences() {
        assertThat(Rendered.identities(DEFAULTS))
                .containsExactly(
                        "karpenter.sh/v1alpha5 Provisioner default",
                        "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate default");
        assertThat(spec(DEFAULTS, "Provisioner", "default")
                        .path("providerRef")
                        .path("name")
                        .asText())
                .isEqualTo("default");
    }

    @Test
    void theDefaultProvisionerHasUpstreamsLimitsConsolidatesAndExpiresNodesAfterThirtyDays() {
        JsonNode spec = spec(DEFAULTS, "Provisioner", "default");

        assertThat(provisionerFields(spec, "/taints"))
                .containsExactly("1000", "1000Gi", "true", MISSING, "2592000", MISSING, MISSING);
    }

    @Test
    void theNodeTemplateSelectsTaggedSubnetsAndSecurityGroupsWithBottlerocketVolumes() {
        JsonNode spec = spec(DEFAULTS, "AWSNodeTemplate", "default");

        assertThat(spec.path("amiFamily").asText()).isEqualTo("Bottlerocket");
        assertThat(spec.path("subnetSelector").properties())
                .singleElement()
                .satisfies(e ->
                        assertThat(e.getKey() + "=" + e.getValue().asText()).isEqualTo("karpenter.sh/discovery=demo"));
        assertThat(spec.path("securityGroupSelector")).isEqualTo(spec.path("subnetSelector"));
        assertThat(volumes(spec))
                .containsExactly(
                        "/dev/xvda gp3 4Gi encrypted deleteOnTermination",
                        "/dev/xvdb gp3 20Gi encrypted deleteOnTermination");
        assertThat(spec.has("instanceProfile"))
                .as("the controller's defaultInstanceProfile applies")
                .isFalse();
    }

    @Test
    void customSettingsReachEveryField() {
        JsonNode spec = spec(CUSTOM, "Provisioner", "default");

        assertThat(provisionerFields(spec, "/taints/1/value"))
                .containsExactly("32", "128Gi", "false", "45", "5400", "{\"team\":\"platform\"}", MISSING);
        assertThat(taints(spec.path("taints"))).containsExactly("dedicated=batch:NoSchedule", "gpu=:NoExecute");
    }

    @Test
    void customNodeTemplateUsesTheFamilyAndTagWithoutBottlerocketVolumes() {
        JsonNode spec = spec(CUSTOM, "AWSNodeTemplate", "default");

        assertThat(at(spec, "/amiFamily", "/subnetSelector", "/securityGroupSelector", "/blockDeviceMappings"))
                .containsExactly("AL2", SHARED_VPC, SHARED_VPC, MISSING);
    }

    @Test
    void extraPoolsBecomeProvisionersOfTheSameNodeTemplate() {
        JsonNode batch = spec(CUSTOM, "Provisioner", "batch");

        // Labels are inherited from the top-level settings.
        assertThat(at(batch, "/limits/resources/cpu", "/providerRef/name", "/labels/team"))
                .containsExactly("8", "default", "platform");
        assertThat(CUSTOM).hasSize(3);
    }

    @Test
    void expiryNeverLeavesTheTtlOut() {
        JsonNode spec = spec(config(V0, "expire_after = \"Never\""), "Provisioner", "default");

        assertThat(spec.has("ttlSecondsUntilExpired")).isFalse();
    }

    @Test
    void theUninstallHookDeletesTheProvisionersAndWaitsForTheirNodes() {
        List<JsonNode> hook = Json.yamlDocuments(
                ManifestYaml.documents(NodePoolManifests.forApis(config(V0).apis())
                        .uninstallHook(config(V0).poolsAndClasses(), "karpenter", 900)));

        assertThat(hook)
                .extracting(h -> h.path("kind").asText())
                .containsExactly("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Job");
        for (JsonNode object : hook) {
            JsonNode annotations = object.path("metadata").path("annotations");
            assertThat(object.path("metadata").path("name").asText()).isEqualTo("karpenter-nodepools-uninstall");
            assertThat(annotations.path("helm.sh/hook").asText()).isEqualTo("pre-delete");
            assertThat(annotations.path("helm.sh/hook-delete-policy").asText())
                    .isEqualTo("before-hook-creation,hook-succeeded");
            assertThat(annotations.path("helm.sh/hook-weight").asInt())
                    .isEqualTo(object.path("kind").asText().equals("Job") ? 0 : -10);
        }
        assertThat(hook.get(0).path("metadata").path("namespace").asText()).isEqualTo("karpenter");
        assertThat(hook.get(1).path("metadata").has("namespace"))
                .as("cluster-scoped")
                .isFalse();
        JsonNode rules = hook.get(1).path("rules");
        assertThat(rules).hasSize(3);
        assertThat(texts(rules.get(0).path("resources"))).containsExactly("provisioners");
        assertThat(texts(rules.get(0).path("verbs"))).containsExactly("get", "list", "watch");
        assertThat(texts(rules.get(1).path("verbs"))).containsExactly("delete");
        assertThat(texts(rules.get(1).path("resourceNames")))
                .as("only this release's Provisioners")
                .containsExactly("default");
        assertThat(texts(rules.get(2).path("resources"))).containsExactly("nodes");
        assertThat(texts(rules.get(2).path("verbs"))).doesNotContain("delete");
        assertThat(hook.get(2).path("roleRef").path("name").asText()).isEqualTo("karpenter-nodepools-uninstall");
        assertThat(hook.get(2).path("subjects").get(0).path("namespace").asText())
                .isEqualTo("karpenter");

        JsonNode job = hook.get(3).path("spec");
        assertThat(job.path("activeDeadlineSeconds").asInt())
                .as("gives up before Helm does")
                .isEqualTo(840);
        JsonNode pod = job.path("template").path("spec");
        assertThat(pod.path("serviceAccountName").asText()).isEqualTo("karpenter-nodepools-uninstall");
        assertThat(pod.path("restartPolicy").asText()).isEqualTo("Never");
        JsonNode avoid = pod.at(
                "/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/matchExpressions/0");
        assertThat(avoid.path("key").asText() + " " + avoid.path("operator").asText())
                .isEqualTo("karpenter.sh/provisioner-name DoesNotExist");

        // No shell: the image only needs kubectl; first delete (an init container), then wait.
        JsonNode delete = pod.path("initContainers").get(0);
        JsonNode wait = pod.path("containers").get(0);
        assertThat(pod.path("initContainers")).hasSize(1);
        assertThat(pod.path("containers")).hasSize(1);
        assertThat(texts(delete.path("command")))
                .containsExactly(
                        "kubectl",
                        "--cache-dir=/kube-cache",
                        "delete",
                        "provisioners.karpenter.sh",
                        "default",
                        "--ignore-not-found",
                        "--wait=true",
                        "--timeout=840s");
        assertThat(texts(wait.path("command")))
                .containsExactly(
                        "kubectl",
                        "--cache-dir=/kube-cache",
                        "wait",
                        "--for=delete",
                        "nodes",
                        "--selector=karpenter.sh/provisioner-name in (default)",
                        "--timeout=840s");
        for (JsonNode container : List.of(delete, wait)) {
            assertThat(container.path("image").asText())
                    .isEqualTo(
                            "registry.k8s.io/kubectl:v1.28.15@sha256:498806b1515409c41d0d209fe2f5cd891fc571698ff19b1d3d9749f8b9b10f46");
            JsonNode security = container.path("securityContext");
            assertThat(security.path("allowPrivilegeEscalation").isBoolean()).isTrue();
            assertThat(security.path("allowPrivilegeEscalation").asBoolean()).isFalse();
            assertThat(texts(security.at("/capabilities/drop"))).containsExactly("ALL");
            assertThat(container.at("/volumeMounts/0/mountPath").asText()).isEqualTo("/kube-cache");
        }
        // Pod Security "restricted" at pod level.
        assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
        assertThat(pod.at("/securityContext/runAsUser").asLong()).isEqualTo(65534);
        assertThat(pod.at("/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
        assertThat(pod.at("/volumes/0/name").asText()).isEqualTo("kube-cache");
        assertThat(pod.at("/volumes/0/emptyDir").isObject()).isTrue();
    }

    @Test
    void theUninstallHookDeletesOnlyThisReleasesProvisionersByName() {
        PoolsAndNodeClasses settings = config(V0, "node_pools = [{ name = \"batch\" }, { name = \"gpu\" }]")
                .poolsAndClasses();
        List<JsonNode> hook = Json.yamlDocuments(ManifestYaml.documents(
                NodePoolManifests.forApis(config(V0).apis()).uninstallHook(settings, "karpenter", 900)));

        JsonNode pod = hook.get(3).at("/spec/template/spec");
        assertThat(texts(pod.at("/initContainers/0/command")))
                .containsSequence("provisioners.karpenter.sh", "default", "batch", "gpu")
                .doesNotContain("--all");
        assertThat(texts(pod.at("/containers/0/command")))
                .contains("--selector=karpenter.sh/provisioner-name in (default,batch,gpu)");
        assertThat(texts(hook.get(1).at("/rules/1/resourceNames"))).containsExactly("default", "batch", "gpu");
    }

    @Test
    void theNodeTemplateCarriesTheTags() {
        JsonNode spec =
                spec(config(V0, "tags = { Team = \"platform\", CostCenter = \"42\" }"), "AWSNodeTemplate", "default");

        assertThat(spec.path("tags").path("Team").asText()).isEqualTo("platform");
        assertThat(spec.path("tags").path("CostCenter").asText()).isEqualTo("42");
        assertThat(spec(config(V0), "AWSNodeTemplate", "default").has("tags")).isFalse();
    }

    @Test
    void thePlainFileKeepsTheSeedsName() {
        assertThat(NodePoolManifests.forApis(config(V0).apis()).plainFileName()).isEqualTo("default-provisioner.yaml");
    }

    static List<String> taints(JsonNode taints) {
        List<String> result = new ArrayList<>();
        taints.forEach(t -> result.add(t.path("key").asText() + "="
                + t.path("value").asText() + ":" + t.path("effect").asText()));
        return result;
    }

    static List<String> volumes(JsonNode spec) {
        List<String> result = new ArrayList<>();
        spec.path("blockDeviceMappings").forEach(b -> {
            JsonNode ebs = b.path("ebs");
            result.add(
                    b.path("deviceName").asText() + " " + ebs.path("volumeType").asText() + " "
                            + ebs.path("volumeSize").asText()
                            + (ebs.path("encrypted").asBoolean() ? " encrypted" : "")
                            + (ebs.path("deleteOnTermination").asBoolean() ? " deleteOnTermination" : ""));
        });
        return result;
    }

    /** Limits, consolidation, lifetimes and labels of a Provisioner's spec, then the value at {@code taintPointer}. */
    private static List<String> provisionerFields(JsonNode spec, String taintPointer) {
        return at(
                spec,
                "/limits/resources/cpu",
                "/limits/resources/memory",
                "/consolidation/enabled",
                "/ttlSecondsAfterEmpty",
                "/ttlSecondsUntilExpired",
                "/labels",
                taintPointer);
    }
}
