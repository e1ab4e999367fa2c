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

/** bin/preview's command on the example and on written configurations, as text and JSON. */
@KernelOnlyThroughSynthesized
class PreviewCommandTest {
    private static final Path EXAMPLE = Path.of("terraform.tfvars.example").toAbsolutePath();

    @TempDir
    Path dir;

    private final Console console = new Console();

    private int run(String... args) {
        return PreviewCommand.run(dir, args, Map.of(), console.out(), console.err());
    }

    @Test
    void examplesDefaultPoolAsJson() throws IOException {
        assertThat(run("--json", EXAMPLE.toString())).isZero();
        JsonNode cluster = Json.mapper().readTree(console.stdout()).path("eks-cluster");
        JsonNode pool = cluster.at("/pools/default");
        assertThat(pool.path("instance_types")).hasSize(714);
        assertThat(pool.path("count").asInt()).isEqualTo(714);
        assertThat(pool.at("/cheapest/type").asText()).isEqualTo("c7a.medium");
        assertThat(pool.at("/cheapest/usd_per_hour").decimalValue()).isEqualByComparingTo("0.05132");
        assertThat(pool.path("cheapest_on_demand")).hasSize(5);
        assertThat(pool.at("/vcpu/min").asInt()).isEqualTo(1);
        assertThat(pool.path("max_nodes").asLong()).isPositive();
        assertThat(pool.path("narrowing_nothing").get(0).asText()).startsWith("karpenter.sh/capacity-type In");
        assertThat(cluster.at("/prices/region").asText()).isEqualTo("us-east-1");
    }

    @Test
    void textNamesCountsLimitsAndWherePricesComeFrom() {
        assertThat(run(EXAMPLE.toString())).isZero();
        assertThat(console.stdout())
                .contains("cluster eks-cluster (Karpenter " + KarpenterRelease.newest() + ")")
                .contains("pool default: 714 instance types")
                .contains("cheapest on-demand: c7a.medium $0.05132/h")
                .contains("limits: cpu 1000, memory 1000Gi -> at most ")
                .containsPattern("prices: on-demand list prices for us-east-1 generated \\d{4}-\\d\\d-\\d\\dT");
    }

    /**
     * On v0.30 the preview reads the Provisioner as Karpenter stores it, with its webhook's defaults (linux, amd64,
     * on-demand; c, m, r above generation 2 where nothing names the instance shape). The counts and the cheapest types
     * were found by a script over upstream's instance-types.md and pricing file at the catalogue's commit.
     */
    @Test
    void provisionersAreReadWithKarpentersDefaults() throws IOException {
        Files.writeString(
                dir.resolve("family.tfvars"),
                TestConfigs.tfvarsFor(
                        "family",
                        "us-west-2",
                        TestConfigs.V0,
                        "node_pool_spec = { requirements = [{ key = \"karpenter.k8s.aws/instance-family\", operator ="
                                + " \"In\", values = [\"m6g\", \"m6i\"] }] }"));
        Files.writeString(
                dir.resolve("size.tfvars"),
                TestConfigs.tfvarsFor(
                        "size",
                        "us-west-2",
                        TestConfigs.V0,
                        "node_pool_spec = { requirements = [{ key = \"karpenter.k8s.aws/instance-cpu\", operator ="
                                + " \"Lt\", values = [\"5\"] }] }"));
        assertThat(run("--json", dir.toString())).isZero();
        JsonNode document = Json.mapper().readTree(console.stdout());

        JsonNode family = document.at("/family/pools/default");
        List<String> types = new ArrayList<>();
        family.path("instance_types").forEach(type -> types.add(type.asText()));
        assertThat(types)
                .containsExactlyInAnyOrder(
                        "m6i.large",
                        "m6i.xlarge",
                        "m6i.2xlarge",
                        "m6i.4xlarge",
                        "m6i.8xlarge",
                        "m6i.12xlarge",
                        "m6i.16xlarge",
                        "m6i.24xlarge",
                        "m6i.32xlarge",
                        "m6i.metal");
        assertThat(family.at("/cheapest/type").asText()).isEqualTo("m6i.large");
        assertThat(family.at("/cheapest/usd_per_hour").decimalValue()).isEqualByComparingTo("0.096");

        JsonNode size = document.at("/size/pools/default");
        assertThat(size.path("count").asInt()).isEqualTo(154);
        assertThat(size.at("/cheapest/type").asText()).isEqualTo("c7a.medium");
    }

    /**
     * Every operator, from the typed settings of node_pools and from an upstream spec, on the newest release. The
     * counts, families and cheapest types were found by a script over upstream's instance-types.md and pricing file
     * at the catalogue's commit, applying node affinity's semantics (NotIn and DoesNotExist accept a type without the
     * label; In, Exists, Gt and Lt need it).
     */
    @Test
    void everyOperatorMatchesAnIndependentCount() throws IOException {
        Path pools = dir.resolve("pools.tfvars");
        Files.writeString(pools, TestConfigs.tfvarsFor("pools", "eu-west-1", TestConfigs.V1, """
                        node_pool_spec = { template = { spec = { requirements = [
                          { key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["c", "m"] },
                          { key = "karpenter.k8s.aws/instance-memory", operator = "Lt", values = ["8193"] },
                          { key = "kubernetes.io/arch", operator = "In", values = ["arm64", "amd64"] }
                        ] } } }
                        node_pools = [
                          { name = "families", architectures = ["amd64", "arm64"], instance_categories = [],
                            instance_generation_min = 1, node_requirements = [
                              { key = "karpenter.k8s.aws/instance-family", operator = "In",
                                values = ["m6i", "m7g", "r8g", "c5n"] },
                              { key = "karpenter.k8s.aws/instance-size", operator = "NotIn",
                                values = ["metal", "metal-24xl", "metal-48xl"] } ] },
                          { name = "sized", architectures = ["arm64"], instance_categories = ["m", "r", "x"],
                            node_requirements = [
                              { key = "karpenter.k8s.aws/instance-cpu", operator = "Gt", values = ["7"] },
                              { key = "karpenter.k8s.aws/instance-cpu", operator = "Lt", values = ["33"] },
                              { key = "karpenter.k8s.aws/instance-memory", operator = "Gt", values = ["65536"] },
                              { key = "karpenter.k8s.aws/instance-gpu-count", operator = "DoesNotExist" } ] },
                          { name = "gpu", instance_categories = [], node_requirements = [
                              { key = "karpenter.k8s.aws/instance-gpu-manufacturer", operator = "In",
                                values = ["nvidia"] },
                              { key = "karpenter.k8s.aws/instance-gpu-name", operator = "NotIn",
                                values = ["t4", "k80"] } ] },
                          { name = "nvme", architectures = ["amd64", "arm64"], instance_categories = ["i", "d", "c", "m"],
                            instance_generation_min = 6, node_requirements = [
                              { key = "karpenter.k8s.aws/instance-local-nvme", operator = "Exists" },
                              { key = "karpenter.k8s.aws/instance-hypervisor", operator = "In", values = ["nitro"] },
                              { key = "karpenter.k8s.aws/instance-cpu-manufacturer", operator = "NotIn",
                                values = ["intel"] },
                              { key = "topology.kubernetes.io/zone", operator = "In", values = ["eu-west-1a"] } ] },
                          { name = "flex", instance_categories = ["c", "m", "r", "t"], node_requirements = [
                              { key = "karpenter.k8s.aws/instance-capability-flex", operator = "In", values = ["true"] },
                              { key = "karpenter.k8s.aws/instance-network-bandwidth", operator = "Gt",
                                values = ["1000"] },
                              { key = "karpenter.k8s.aws/instance-encryption-in-transit-supported", operator = "In",
                                values = ["true"] } ] }
                        ]"""));
        assertThat(run("--json", pools.toString())).isZero();
        JsonNode document = Json.mapper().readTree(console.stdout()).at("/pools/pools");
        record Expected(String pool, int count, String cheapest, String usdPerHour) {}
        for (Expected expected : List.of(
                new Expected("default", 129, "c6g.medium", "0.034"),
                new Expected("families", 33, "m7g.medium", "0.0408"),
                new Expected("sized", 29, "x8g.2xlarge", "0.7816"),
                new Expected("gpu", 46, "g6f.large", "0.202"),
                new Expected("nvme", 80, "c6gd.medium", "0.0384"),
                new Expected("flex", 25, "c7i-flex.2xlarge", "0.33915"))) {
            JsonNode pool = document.path(expected.pool());
            assertThat(pool.path("instance_types")).as(expected.pool()).hasSize(expected.count());
            assertThat(pool.at("/cheapest/type").asText()).as(expected.pool()).isEqualTo(expected.cheapest());
            assertThat(pool.at("/cheapest/usd_per_hour").decimalValue())
                    .as(expected.pool())
                    .isEqualByComparingTo(expected.usdPerHour());
        }
        assertThat(document.at("/nvme/families").toString())
                .isEqualTo("[\"c6gd\",\"c7gd\",\"c8gd\",\"i8g\",\"i8ge\",\"m6gd\",\"m7gd\",\"m8gd\",\"m9gd\"]");
        assertThat(document.at("/flex/families").toString())
                .isEqualTo("[\"c7i-flex\",\"c8i-flex\",\"m7i-flex\",\"m8i-flex\",\"r8i-flex\"]");
        assertThat(document.at("/flex/vcpu").toString()).isEqualTo("{\"min\":8,\"max\":64}");
        assertThat(document.at("/nvme/narrowing_nothing").toString())
                .contains("topology.kubernetes.io/zone In [eu-west-1a]");
        // the spec's requirements replace the typed ones, capacity type included
        assertThat(document.at("/default/narrowing_nothing")).isEmpty();
    }

    /** A pool no type is left for names the default that empties it, and can spend nothing. */
    @Test
    void aDefaultThatLeavesNoTypeIsNamedAsKarpentersDefault() throws IOException {
        Path arm = dir.resolve("arm.tfvars");
        Files.writeString(
                arm,
                TestConfigs.tfvarsFor(
                        "arm",
                        "us-west-2",
                        TestConfigs.V0,
                        "node_pool_spec = { requirements = [{ key = \"karpenter.k8s.aws/instance-family\", operator ="
                                + " \"In\", values = [\"m6g\"] }] }"));
        assertThat(run("--json", arm.toString())).isZero();
        JsonNode pool = Json.mapper().readTree(console.stdout()).at("/arm/pools/default");
        assertThat(pool.path("count").asInt()).isZero();
        assertThat(pool.path("ceiling_usd_per_month").decimalValue()).isZero();
        assertThat(pool.path("refusals")).isEmpty();
        assertThat(pool.path("warnings").get(0).asText())
                .contains("requirement kubernetes.io/arch In [amd64] (requirements[2], which Karpenter adds to a"
                        + " Provisioner without a requirement on kubernetes.io/arch) leaves none");
        assertThat(console.stderr()).contains("reading " + arm + " (named on the command line)");
    }

    /** limits.nodes counts nodes; a static pool keeps its replicas within it. */
    @Test
    void theNodesLimitAndAStaticPoolsReplicasBoundTheNodes() throws IOException {
        Path nodes = dir.resolve("nodes.tfvars");
        Files.writeString(
                nodes,
                TestConfigs.tfvarsFor(
                        "capped",
                        "us-west-2",
                        TestConfigs.V1,
                        "node_pools = [{ name = \"fixed\", spec = { replicas = 3, limits = { nodes = 5 } } }]",
                        "node_pool_spec = { limits = { cpu = \"1000\", memory = \"1000Gi\", nodes = \"10\" } }"));
        assertThat(run("--json", nodes.toString())).isZero();
        JsonNode cluster =
                Json.mapper().readTree(console.stdout()).path("capped").path("pools");

        assertThat(cluster.at("/default/max_nodes").asLong()).isEqualTo(10);
        assertThat(cluster.at("/fixed/max_nodes").asLong()).isEqualTo(3);
        assertThat(cluster.at("/fixed/ceiling_usd_per_month").decimalValue()).isPositive();
    }

    /** An ephemeral-storage limit counts each node's volume, as the node class sets it. */
    @Test
    void anEphemeralStorageLimitCountsTheNodeClassesVolume() throws IOException {
        Path disks = dir.resolve("disks.tfvars");
        Files.writeString(
                disks,
                TestConfigs.tfvarsFor(
                        "disks",
                        "us-west-2",
                        TestConfigs.V1,
                        "node_class_spec = { blockDeviceMappings = [{ deviceName = \"/dev/xvda\", rootVolume = true,"
                                + " ebs = { volumeSize = \"100Gi\" } }] }",
                        "node_pool_spec = { limits = { cpu = \"1000\", \"ephemeral-storage\" = \"1000Gi\" } }"));
        assertThat(run("--json", disks.toString())).isZero();
        assertThat(Json.mapper()
                        .readTree(console.stdout())
                        .at("/disks/pools/default/max_nodes")
                        .asLong())
                .isEqualTo(10);
    }

    @Test
    void poolsOfADirectoryOfClustersWithWarnings() throws IOException {
        Files.writeString(
                dir.resolve("a.tfvars"),
                TestConfigs.tfvarsFor(
                        "alpha",
                        "us-west-2",
                        TestConfigs.V1,
                        "controller_values = { settings = { featureGates = { spotToSpotConsolidation = true } } }",
                        "node_pools = [{ name = \"few\", capacity_types = [\"spot\"], node_requirements = [{ key ="
                                + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\"] },"
                                + " { key = \"karpenter.k8s.aws/instance-cpu\", operator = \"Lt\", values ="
                                + " [\"9\"] }] }]"));
        Files.writeString(dir.resolve("b.tfvars"), TestConfigs.tfvarsFor("beta", "eu-west-1", TestConfigs.V1));
        assertThat(run("--json", dir.toString())).isZero();
        JsonNode document = Json.mapper().readTree(console.stdout());
        List<String> clusters = new ArrayList<>();
        document.fieldNames().forEachRemaining(clusters::add);
        assertThat(clusters).containsExactly("alpha", "beta");
        JsonNode few = document.at("/alpha/pools/few");
        assertThat(few.path("instance_types").toString())
                .isEqualTo("[\"c7a.medium\",\"c7a.large\",\"c7a.xlarge\",\"c7a.2xlarge\"]");
        assertThat(few.path("warnings").get(0).asText())
                .contains("pool \"few\" allows spot with spot-to-spot consolidation on but matches 4 instance types");
        assertThat(document.at("/alpha/warnings").toString())
                .contains("pools \\\"default\\\" and \\\"few\\\" have the same weight (0) and share 4 instance types");
    }

    @Test
    void nodeOverlaysPriceTheTypesTheySelect() throws IOException {
        Files.writeString(
                dir.resolve("overlaid.tfvars"),
                Files.readString(EXAMPLE)
                        + "node_overlays = [{ name = \"savings-plan\", spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\"] }],"
                        + " priceAdjustment = \"-50%\" } }]\n");
        assertThat(run("--json", dir.resolve("overlaid.tfvars").toString())).isZero();
        JsonNode cheapest = Json.mapper().readTree(console.stdout()).at("/eks-cluster/pools/default/cheapest");
        assertThat(cheapest.path("type").asText()).isEqualTo("c7a.medium");
        assertThat(cheapest.path("usd_per_hour").decimalValue()).isEqualByComparingTo("0.02566");
        assertThat(cheapest.path("node_overlays").get(0).asText()).isEqualTo("savings-plan");
    }

    /**
     * Of two overlays of the same weight pricing the same types, Karpenter applies the one taken second (the name
     * earlier in the alphabet) nowhere, its capacity included: the preview leaves it out and says so.
     */
    @Test
    void anOverlayInConflictIsLeftOutWithAWarning() throws IOException {
        Files.writeString(
                dir.resolve("conflict.tfvars"),
                Files.readString(EXAMPLE)
                        + "node_overlays = [{ name = \"a-cheap\", spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\"] }],"
                        + " priceAdjustment = \"-90%\", capacity = { \"example.com/fpga\" = 1 } } },"
                        + " { name = \"b-discount\", spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\"] }],"
                        + " priceAdjustment = \"-50%\" } }]\n");
        assertThat(run("--json", dir.resolve("conflict.tfvars").toString())).isZero();
        JsonNode cluster = Json.mapper().readTree(console.stdout()).at("/eks-cluster");
        JsonNode cheapest = cluster.at("/pools/default/cheapest");
        assertThat(cheapest.path("type").asText()).isEqualTo("c7a.medium");
        assertThat(cheapest.path("usd_per_hour").decimalValue()).isEqualByComparingTo("0.02566");
        assertThat(cheapest.path("node_overlays").toString()).isEqualTo("[\"b-discount\"]");
        assertThat(cluster.path("warnings").toString())
                .contains("node overlay \\\"a-cheap\\\" sets the price of c7a.")
                .contains("as \\\"b-discount\\\" of the same weight (0) does: Karpenter applies it nowhere");
    }

    /**
     * An overlay reaches the pools its requirements on the pool's name, the pool's template labels and the node
     * class's system admit, and none while controller_values turns the gate off. (The pool's discount weighs more than the
     * team's: of equal weights, Karpenter would apply the second nowhere.)
     */
    @Test
    void nodeOverlaysApplyPerPool() throws IOException {
        String overlays = "node_pools = [{ name = \"batch\", node_labels = { team = \"batch\" } }, { name = \"tagged\","
                + " node_requirements = [{ key = \"team\", operator = \"In\", values = [\"batch\"] }] }]\n"
                + "node_overlays = [{ name = \"batch-discount\", spec = { weight = 10, requirements = [{ key ="
                + " \"karpenter.sh/nodepool\", operator = \"In\", values = [\"batch\"] }], priceAdjustment ="
                + " \"-50%\" } }, { name = \"team-discount\", spec = { requirements = [{ key = \"team\", operator ="
                + " \"In\", values = [\"batch\"] }], priceAdjustment = \"-10%\" } }, { name ="
                + " \"windows-licence\", spec = { requirements = [{ key = \"kubernetes.io/os\", operator = \"In\","
                + " values = [\"windows\"] }], priceAdjustment = \"+100%\" } }]\n";
        Files.writeString(dir.resolve("pools.tfvars"), Files.readString(EXAMPLE) + overlays);
        assertThat(run("--json", dir.resolve("pools.tfvars").toString())).isZero();
        JsonNode pools = Json.mapper().readTree(console.stdout()).at("/eks-cluster/pools");

        assertThat(pools.at("/default/cheapest/node_overlays")).isEmpty();
        // Karpenter matches the template's labels, not the pool's requirements: "team" is not defined there.
        assertThat(pools.at("/tagged/cheapest/node_overlays")).isEmpty();
        assertThat(pools.at("/batch/cheapest/node_overlays").toString())
                .contains("batch-discount")
                .contains("team-discount")
                .doesNotContain("windows-licence");

        console.reset();
        Files.writeString(
                dir.resolve("off.tfvars"),
                Files.readString(EXAMPLE)
                        + "controller_values = { settings = { featureGates = { nodeOverlay = false } } }\n"
                        + overlays);
        assertThat(run("--json", dir.resolve("off.tfvars").toString())).isZero();
        assertThat(Json.mapper().readTree(console.stdout()).at("/eks-cluster/pools/batch/cheapest/node_overlays"))
                .isEmpty();
    }

    /** The pull request's report: this branch's pools, and what changed against the base branch's preview. */
    @Test
    void markdownWithTheChangeAgainstTheBase() throws IOException {
        Path base = dir.resolve("base.tfvars");
        Files.writeString(
                base,
                Files.readString(EXAMPLE) + "node_pools = [{ name = \"retired\", instance_categories = [\"x\"] }]\n");
        assertThat(run("--json", base.toString())).isZero();
        Path baseJson = dir.resolve("base.json");
        Files.writeString(baseJson, console.stdout());
        console.reset();
        Path head = dir.resolve("head.tfvars");
        Files.writeString(
                head,
                Files.readString(EXAMPLE)
                                .replace(
                                        "instance_categories = [\"c\", \"m\", \"r\"]",
                                        "instance_categories = [\"c\", \"m\", \"r\", \"t\"]")
                        + "node_pools = [{ name = \"burst\", instance_categories = [\"t\"] }]\n");
        assertThat(run("--markdown", "--base", baseJson.toString(), "--cluster", "eks-cluster", head.toString()))
                .isZero();
        String markdown = console.stdout();
        assertThat(markdown)
                .contains("### Node pools of eks-cluster: what they can launch (bin/preview)")
                .containsPattern("\\| default \\| \\d+ \\| \\d+ \\| 1-384 \\|")
                .contains("#### Against the base branch")
                .containsPattern("\\| default \\| 714 → \\d+ \\| \\d+: t3\\.nano, ")
                .contains("| burst | new: ")
                .containsPattern("\\| retired \\| \\d+ → removed \\| - \\| all \\|")
                .contains("warning: pools \"default\" and \"burst\" have the same weight (0)")
                .contains("<sub>on-demand list prices for us-east-1");
        assertThat(markdown.length()).isLessThan(PreviewMarkdown.MAX_LENGTH);
        assertThat(run("--markdown", "--cluster", "nope", head.toString())).isEqualTo(2);
    }

    @Test
    void helpAndBadArguments() {
        assertThat(run("--help")).isZero();
        assertThat(console.stdout()).startsWith("usage: bin/preview [--json | --markdown] [--base BASE_JSON]");
        assertThat(run("--cheap")).isEqualTo(2);
        assertThat(console.stderr()).contains("preview: unknown option --cheap");
    }
}
