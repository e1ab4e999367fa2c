package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.Console;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a change replaces, per pool, at the newest release and at 0.37 (v1beta1): bin/preview --json on the base
 * configuration, then --json --base on the changed one. The expectations follow upstream's hash and drift rules:
 * the hash covers the pool's template (less its requirements) and the node class's spec (less its selector terms);
 * the AMI, subnet and security group selections and the requirements drift by their own checks.
 */
@KernelOnlyThroughSynthesized
class PoolDriftTest {
    private static final String V037 = "0.37.8";

    @TempDir
    Path dir;

    private final Console console = new Console();

    private int run(String... args) {
        console.reset();
        return PreviewCommand.run(dir, args, Map.of(), console.out(), console.err());
    }

    /** The drift entry of pool "default" from {@code base} to {@code head} settings lines. */
    private JsonNode drift(String release, List<String> base, List<String> head) throws IOException {
        Path baseFile = dir.resolve("base.tfvars");
        Path headFile = dir.resolve("head.tfvars");
        Files.writeString(baseFile, TestConfigs.tfvars(release, base.toArray(String[]::new)));
        Files.writeString(headFile, TestConfigs.tfvars(release, head.toArray(String[]::new)));
        assertThat(run("--json", "--nodes", "20", baseFile.toString()))
                .as(console.stderr())
                .isZero();
        Path baseJson = dir.resolve("base.json");
        Files.writeString(baseJson, console.stdout());
        assertThat(run("--json", "--nodes", "20", "--base", baseJson.toString(), headFile.toString()))
                .as(console.stderr())
                .isZero();
        return Json.mapper().readTree(console.stdout()).at("/demo/pools/default/drift");
    }

    private static List<String> kinds(JsonNode drift) {
        List<String> kinds = new ArrayList<>();
        drift.path("causes").forEach(cause -> kinds.add(cause.path("kind").asText()));
        return kinds;
    }

    private static List<String> fields(JsonNode drift, String kind) {
        List<String> fields = new ArrayList<>();
        drift.path("causes").forEach(cause -> {
            if (cause.path("kind").asText().equals(kind)) {
                cause.path("fields").forEach(field -> fields.add(field.asText()));
            }
        });
        return fields;
    }

    private static String newest() {
        return TestConfigs.V1;
    }

    @ParameterizedTest
    @ValueSource(strings = {"newest", V037})
    void aLabelIsStaticDriftOfEveryNode(String release) throws IOException {
        String version = release.equals("newest") ? newest() : release;
        JsonNode drift = drift(version, List.of(), List.of("node_labels = { team = \"platform\" }"));
        assertThat(kinds(drift)).containsExactly("static");
        assertThat(fields(drift, "static")).containsExactly("spec.template.metadata.labels");
        assertThat(drift.path("every_node").asBoolean()).isTrue();
        assertThat(drift.path("nodes_at_most").asLong()).isEqualTo(20);
    }

    /** A Provisioner (0.30) hashes its spec less requirements, provider, TTLs, limits, weight and consolidation. */
    @Test
    void provisionersHashTheirLabelsNotTheirLimits() throws IOException {
        JsonNode labels = drift(TestConfigs.V0, List.of(), List.of("node_labels = { team = \"platform\" }"));
        assertThat(fields(labels, "static")).containsExactly("spec.labels");
        assertThat(labels.path("every_node").asBoolean()).isTrue();
        assertThat(kinds(drift(TestConfigs.V0, List.of(), List.of("cpu_limit = 10"))))
                .containsExactly("none");
    }

    /** A node class field outside the selectors (tags) is hashed; so is the kubelet (v1: on the node class). */
    @ParameterizedTest
    @ValueSource(strings = {"newest", V037})
    void aNodeClassTagIsStaticDrift(String release) throws IOException {
        String version = release.equals("newest") ? newest() : release;
        JsonNode drift = drift(version, List.of(), List.of("node_class_spec = { tags = { cost-center = \"42\" } }"));
        assertThat(kinds(drift)).containsExactly("static");
        assertThat(fields(drift, "static")).containsExactly("nodeClass.spec.tags");
        assertThat(drift.path("every_node").asBoolean()).isTrue();
    }

    @Test
    void pinningTheAmiIsAmiDriftAtTheNewestRelease() throws IOException {
        JsonNode drift = drift(newest(), List.of(), List.of("ami_version = \"v1.20.0\""));
        assertThat(kinds(drift)).containsExactly("ami");
        assertThat(fields(drift, "ami")).containsExactly("nodeClass.spec.amiSelectorTerms");
        assertThat(drift.path("every_node").asBoolean()).isTrue();
    }

    @Test
    void selectingAmisIsAmiDriftAt037() throws IOException {
        JsonNode drift = drift(
                V037,
                List.of(),
                List.of("node_class_spec = { amiSelectorTerms = [{ id = \"ami-0123456789abcdef0\" }] }"));
        assertThat(kinds(drift)).containsExactly("ami");
        assertThat(drift.path("every_node").asBoolean()).isTrue();
    }

    /** Subnets drift only the nodes in subnets no longer selected; security groups drift every node. */
    @ParameterizedTest
    @ValueSource(strings = {"newest", V037})
    void subnetsAndSecurityGroupsAreNetworkDrift(String release) throws IOException {
        String version = release.equals("newest") ? newest() : release;
        JsonNode subnets = drift(
                version,
                List.of(),
                List.of("node_class_spec = { subnetSelectorTerms = [{ tags = { tier = \"private\" } }] }"));
        assertThat(kinds(subnets)).containsExactly("network");
        assertThat(fields(subnets, "network")).containsExactly("nodeClass.spec.subnetSelectorTerms");
        assertThat(subnets.path("every_node").asBoolean()).isFalse();
        JsonNode groups = drift(
                version,
                List.of(),
                List.of("node_class_spec = { securityGroupSelectorTerms = [{ id = \"sg-0123456789abcdef0\" }] }"));
        assertThat(fields(groups, "network")).containsExactly("nodeClass.spec.securityGroupSelectorTerms");
        assertThat(groups.path("every_node").asBoolean()).isTrue();
    }

    /** Narrower requirements drift the nodes on the types no longer allowed, named from the catalogue. */
    @ParameterizedTest
    @ValueSource(strings = {"newest", V037})
    void narrowerRequirementsNameTheTypesNoLongerAllowed(String release) throws IOException {
        String version = release.equals("newest") ? newest() : release;
        JsonNode drift = drift(
                version, List.of("instance_categories = [\"c\", \"m\"]"), List.of("instance_categories = [\"c\"]"));
        assertThat(kinds(drift)).containsExactly("requirements");
        assertThat(drift.path("every_node").asBoolean()).isFalse();
        List<String> removed = new ArrayList<>();
        drift.at("/causes/0/instance_types").forEach(type -> removed.add(type.asText()));
        assertThat(removed).contains("m5.large", "m7i.xlarge").noneMatch(type -> type.startsWith("c"));
        // Widening drifts nothing.
        assertThat(kinds(drift(
                        version,
                        List.of("instance_categories = [\"c\"]"),
                        List.of("instance_categories = [\"c\", \"m\"]"))))
                .containsExactly("none");
    }

    /** Requirements on labels no type carries narrow too: dropping spot drifts the spot nodes. */
    @Test
    void droppingACapacityTypeIsRequirementsDrift() throws IOException {
        JsonNode drift = drift(
                newest(),
                List.of("capacity_types = [\"spot\", \"on-demand\"]"),
                List.of("capacity_types = [\"on-demand\"]"));
        assertThat(kinds(drift)).containsExactly("requirements");
        assertThat(fields(drift, "requirements"))
                .containsExactly("spec.template.spec.requirements karpenter.sh/capacity-type");
    }

    /** A false written inside the kubelet is a set pointer: hashed, every node drifts (an independent review's case). */
    @ParameterizedTest
    @ValueSource(strings = {"newest", V037})
    void aFalseWrittenInsideABlockIsStaticDrift(String release) throws IOException {
        String version = release.equals("newest") ? newest() : release;
        String at = version.equals(V037)
                ? "node_pool_spec = { template = { spec = { kubelet = "
                : "node_class_spec = { kubelet = ";
        String close = version.equals(V037) ? " } } }" : " }";
        JsonNode drift = drift(
                version,
                List.of(at + "{ maxPods = 110 }" + close),
                List.of(at + "{ maxPods = 110, cpuCFSQuota = false }" + close));
        assertThat(kinds(drift)).containsExactly("static");
        assertThat(drift.path("every_node").asBoolean()).isTrue();
    }

    /**
     * A new requirement on a custom label the nodes do not carry fails Karpenter's Compatible for every node; a NotIn
     * on it admits them all (the label is undefined on them).
     */
    @Test
    void aCustomLabelRequirementDriftsEveryNodeUnlessItIsNotIn() throws IOException {
        JsonNode in = drift(
                newest(),
                List.of(),
                List.of("node_requirements = [{ key = \"example.com/team\", operator = \"In\", values = [\"a\"] }]"));
        assertThat(kinds(in)).containsExactly("requirements");
        assertThat(in.path("every_node").asBoolean()).isTrue();
        JsonNode notIn = drift(
                newest(),
                List.of(),
                List.of(
                        "node_requirements = [{ key = \"example.com/team\", operator = \"NotIn\", values = [\"a\"] }]"));
        assertThat(kinds(notIn)).containsExactly("none");
    }

    /** Limits, weight, budgets and consolidation are outside the hash: nothing drifts. */
    @ParameterizedTest
    @ValueSource(strings = {"newest", V037})
    void limitsWeightAndBudgetsReplaceNoNode(String release) throws IOException {
        String version = release.equals("newest") ? newest() : release;
        JsonNode drift = drift(
                version,
                List.of(),
                List.of(
                        "cpu_limit = 10",
                        "node_pool_spec = { weight = 5, disruption = { budgets = [{ nodes = \"1\" }] } }"));
        assertThat(kinds(drift)).containsExactly("none");
        assertThat(drift.path("every_node").asBoolean()).isFalse();
    }

    /**
     * Hashing as upstream configures hashstructure: lists as sets, a missing value skipped, but a false or 0 written
     * kept (upstream's optional fields are pointers, and only a nil one is a zero value).
     */
    @Test
    void comparesAsTheHashDoes() {
        assertThat(PoolDrift.normal(Map.of("taints", List.of("b", "a"))))
                .isEqualTo(PoolDrift.normal(Map.of("taints", List.of("a", "b"))));
        java.util.Map<String, Object> withNull = new java.util.HashMap<>();
        withNull.put("name", null);
        assertThat(PoolDrift.normal(withNull)).isEqualTo(PoolDrift.normal(Map.of()));
        assertThat(PoolDrift.normal(Map.of("on", false))).isNotEqualTo(PoolDrift.normal(Map.of()));
        assertThat(PoolDrift.normal(Map.of("weight", 0))).isNotEqualTo(PoolDrift.normal(Map.of()));
        assertThat(PoolDrift.normal(Map.of("value", "0"))).isNotEqualTo(PoolDrift.normal(Map.of("value", 0)));
        assertThat(PoolDrift.normal(Map.of("size", 20))).isEqualTo(PoolDrift.normal(Map.of("size", 20L)));
    }

    /** A pool the base branch lacks is new: it replaces nothing. */
    @Test
    void aNewPoolReplacesNothing() throws IOException {
        assertThat(drift(
                                newest(),
                                List.of("default_node_pool = false", "node_pools = [{ name = \"other\" }]"),
                                List.of())
                        .path("new_pool")
                        .asBoolean())
                .isTrue();
    }

    /** The release alone: from 0.36 (and the drift-safe patches) hash versions let Karpenter re-stamp, not drift. */
    @Test
    void aReleaseChangeSaysWhetherItDriftsNodes() {
        assertThat(ReleaseDrift.describe(KarpenterRelease.of("1.11.3"), KarpenterRelease.of("1.12.2")))
                .get()
                .asString()
                .contains("node class v4 to v5")
                .contains("drifts no node by itself");
        assertThat(ReleaseDrift.describe(KarpenterRelease.of("0.37.8"), KarpenterRelease.of("0.35.3")))
                .get()
                .asString()
                .contains("may drift every node");
        assertThat(ReleaseDrift.describe(KarpenterRelease.of("0.37.8"), KarpenterRelease.of("0.35.4")))
                .get()
                .asString()
                .contains("drifts no node by itself");
        assertThat(ReleaseDrift.describe(KarpenterRelease.of("1.13.1"), KarpenterRelease.of("1.13.1")))
                .isEmpty();
    }

    /** The pull request's report: one line per pool naming what drifts, how many nodes, and when. */
    @Test
    void theReportSaysWhatDriftsHowManyAndWhen() throws IOException {
        Path baseFile = dir.resolve("base.tfvars");
        Path headFile = dir.resolve("head.tfvars");
        Files.writeString(baseFile, TestConfigs.tfvars(newest()));
        Files.writeString(headFile, TestConfigs.tfvars(newest(), "node_labels = { team = \"platform\" }"));
        assertThat(run("--json", baseFile.toString())).isZero();
        Path baseJson = dir.resolve("base.json");
        Files.writeString(baseJson, console.stdout());
        assertThat(run(
                        "--markdown",
                        "--at",
                        "2027-01-04T00:00:00Z",
                        "--base",
                        baseJson.toString(),
                        headFile.toString()))
                .isZero();
        assertThat(console.stdout())
                .contains("#### What this change replaces (drift)")
                .contains("- `default`: drifts static (spec.template.metadata.labels): every node, at most 540;"
                        + " budgets allow it at any minute, up to 54 at once");
    }
}
