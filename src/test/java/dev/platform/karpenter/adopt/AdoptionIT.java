package dev.platform.karpenter.adopt;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TerraformRunner.PlannedChange;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.upgrade.UpgradePathCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The way in, on moto: one old root applies hand-written stand-ins for terraform-aws-modules' karpenter module
 * (src/test/resources/adopt/standin-modules, not the upstream code: the same resource addresses and AWS names for
 * these inputs, see its README) at v19.21.0 with the seed guide's inputs (cluster "seed-v19", Karpenter 0.30) and at
 * v20.37.2 with IRSA and the node group's role (cluster "mod-v20", Karpenter 1.x) in one apply; bin/adopt reads its
 * raw state once per cluster; the old root, its module calls replaced by the removed blocks, forgets everything and
 * destroys nothing; then the iam and interruption stacks of both clusters import what exists, create no second role,
 * queue or rule, and apply. The states recorded from the real modules are read by AdoptCommandTest; the hidden and
 * real-module checks apply the real module.
 */
@IntegrationTest
class AdoptionIT {
    private static final ObjectMapper JSON = Json.mapper();
    private static final String SEED = "seed-v19";
    private static final String V20 = "mod-v20";
    /** What an adopting plan must never do to anything: destroy it, or destroy and create it again. */
    private static final Set<String> DESTRUCTIVE = Set.of("delete", "replace");
    /** The types whose objects exist before the adoption: created again, they would be a second set. */
    private static final Set<String> ADOPTED_TYPES = Set.of(
            "aws_iam_role",
            "aws_iam_instance_profile",
            "aws_sqs_queue",
            "aws_sqs_queue_policy",
            "aws_cloudwatch_event_rule",
            "aws_cloudwatch_event_target");

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.perClass();

    @TempDir
    Path oldRoot;

    @Test
    void theModulesV19AndV20AreAdoptedWithoutASecondRoleQueueOrRuleAndTheOldRootDestroysNothing() throws IOException {
        long start = System.nanoTime();
        MotoServer moto = MOTO.server();
        MotoServer.EksCluster seed = moto.createEksCluster(SEED, "1.27");
        MotoServer.EksCluster twenty = moto.createEksCluster(V20, "1.32");
        copyModule("v19.21.0");
        copyModule("v20.37.2");
        ObjectNode root = oldRootConfig(seed, twenty);
        Files.writeString(oldRoot.resolve("cdk.tf.json"), root.toString());
        TerraformRunner old = new TerraformRunner(oldRoot, moto);
        old.init();
        old.apply();
        // The stand-ins make what the real modules made: the managed addresses of the recorded states.
        List<OldState.Resource> applied = OldState.read(oldRoot.resolve("terraform.tfstate"));
        assertThat(managedAddresses(applied, "module.karpenter"))
                .as("v19.21.0 stand-in")
                .containsExactlyInAnyOrderElementsOf(recordedAddresses("v19.21.0-seed.show.json"));
        Set<String> recordedV20 = new TreeSet<>(recordedAddresses("v20.37.2-irsa.show.json"));
        // Recorded with create_instance_profile = true; this root leaves it at the module's default, false.
        recordedV20.remove("aws_iam_instance_profile.this[0]");
        assertThat(managedAddresses(applied, "module.karpenter_v20"))
                .as("v20.37.2 stand-in")
                .containsExactlyInAnyOrderElementsOf(recordedV20);
        List<String> rolesBefore = moto.listRoleNames();
        List<String> queuesBefore = moto.listQueueUrls();
        List<String> rulesBefore = moto.listRuleNames();
        assertThat(rulesBefore).hasSize(8);

        String seedLines = adopt(SEED, "removed-seed.tf");
        String twentyLines = adopt(V20, "removed-v20.tf");
        assertThat(seedLines)
                .contains("controller_role = \"KarpenterIRSA-" + SEED + "\"")
                .contains("queue_name = \"Karpenter-" + SEED + "\"");
        assertThat(twentyLines).contains("controller_role = \"KarpenterController-");

        // The old root without its module calls, with the removed blocks: it forgets, it destroys nothing.
        root.remove("module");
        Files.writeString(oldRoot.resolve("cdk.tf.json"), root.toString());
        List<PlannedChange> forget = old.planToApply();
        assertThat(forget)
                .isNotEmpty()
                .allSatisfy(change ->
                        assertThat(change.action()).as(change.address()).isEqualTo("remove"));
        old.applyPlan();
        assertThat(moto.listQueueUrls()).containsExactlyInAnyOrderElementsOf(queuesBefore);

        ClusterConfig seedConfig = TestConfigs.configFor(SEED, MotoServer.REGION, TestConfigs.V0, seedLines);
        ClusterConfig twentyConfig = TestConfigs.configFor(V20, MotoServer.REGION, TestConfigs.V1, twentyLines);
        Synthesized app = Synthesized.of(seedConfig, twentyConfig);
        List<String> stacks = List.of(SEED + "-iam", SEED + "-interruption", V20 + "-iam", V20 + "-interruption");
        stacks.parallelStream().forEach(stack -> {
            TerraformRunner terraform = new TerraformRunner(app.stackDir(stack), moto);
            terraform.init();
            List<PlannedChange> changes = terraform.planToApply();
            assertThat(changes)
                    .as(stack)
                    .noneSatisfy(change -> assertThat(DESTRUCTIVE).contains(change.action()));
            assertThat(changes.stream().filter(c -> !c.importId().isEmpty()))
                    .as(stack + " imports")
                    .isNotEmpty();
            for (PlannedChange change : changes) {
                if (change.action().equals("create") && ADOPTED_TYPES.contains(change.type())) {
                    // Only what the old module never had: 1.x's capacity reservation rule and its target.
                    assertThat(change.address()).as(stack).contains("CapacityResv");
                }
            }
            terraform.applyPlan();
        });

        assertThat(moto.listQueueUrls()).as("one queue per cluster").containsExactlyInAnyOrderElementsOf(queuesBefore);
        assertThat(moto.listRoleNames())
                .as("no second controller role")
                .filteredOn(name -> !name.startsWith("AWSServiceRole"))
                .containsExactlyInAnyOrderElementsOf(rolesBefore);
        List<String> rulesAfter = moto.listRuleNames();
        assertThat(rulesAfter).containsAll(rulesBefore);
        assertThat(rulesAfter.stream().filter(name -> !rulesBefore.contains(name)))
                .as("one set of rules: only 1.x's capacity reservation rule is new")
                .containsExactlyElementsOf(
                        seedConfig.release().handlesCapacityReservationInterruptions()
                                ? List.of(SEED + "-CapacityResv")
                                : twentyConfig.release().handlesCapacityReservationInterruptions()
                                        ? List.of(V20 + "-CapacityResv")
                                        : List.of());
        // docs/guides/adopting.md, "The journey" step 7: bin/upgrade-path starts from the adopted v0.30 as from the
        // project's own.
        Files.writeString(
                app.dir().resolve("seed.tfvars"),
                TestConfigs.tfvarsFor(SEED, MotoServer.REGION, TestConfigs.V0, seedLines));
        ByteArrayOutputStream walk = new ByteArrayOutputStream();
        ByteArrayOutputStream walkErrors = new ByteArrayOutputStream();
        int walkExit = UpgradePathCommand.run(
                app.dir(),
                new String[] {"seed.tfvars"},
                Map.of(),
                new PrintStream(walk, true, StandardCharsets.UTF_8),
                new PrintStream(walkErrors, true, StandardCharsets.UTF_8));
        assertThat(walkExit).as(walkErrors.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(walk.toString(StandardCharsets.UTF_8))
                .startsWith("Karpenter v0.30.0 is deployed on cluster " + SEED + " (pools declared as v1alpha5).\n")
                .contains("karpenter_chart_version = \"v0.31.5\"");
        System.out.printf("AdoptionIT: %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    /** Runs bin/adopt on the old root's raw state for one cluster; returns its tfvars lines, writes the removed file. */
    private String adopt(String cluster, String removedFile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = AdoptCommand.run(
                oldRoot,
                new String[] {"--state", "terraform.tfstate", "--cluster", cluster, "--removed", removedFile},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(oldRoot.resolve(removedFile)).exists();
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Both module calls, with the seed guide's inputs for v19 and their v20 counterparts (as the real module takes them). */
    private static ObjectNode oldRootConfig(MotoServer.EksCluster seed, MotoServer.EksCluster twenty) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("terraform")
                .putObject("required_providers")
                .putObject("aws")
                .put("source", "hashicorp/aws")
                .put("version", "5.100.0");
        root.putObject("provider").putObject("aws");
        ObjectNode modules = root.putObject("module");
        ObjectNode v19 = modules.putObject("karpenter");
        v19.put("source", "./modules/v19.21.0");
        v19.put("cluster_name", SEED);
        v19.put("irsa_oidc_provider_arn", seed.oidcProviderArn());
        v19.put("create_iam_role", false);
        v19.put("iam_role_arn", seed.nodeRoleArn());
        v19.putArray("irsa_namespace_service_accounts").add("karpenter:karpenter");
        v19.put("irsa_use_name_prefix", false);
        ObjectNode v20 = modules.putObject("karpenter_v20");
        v20.put("source", "./modules/v20.37.2");
        v20.put("cluster_name", V20);
        v20.put("enable_irsa", true);
        v20.put("enable_pod_identity", false);
        v20.put("enable_v1_permissions", true);
        v20.put("irsa_oidc_provider_arn", twenty.oidcProviderArn());
        v20.putArray("irsa_namespace_service_accounts").add("karpenter:karpenter");
        v20.put("create_node_iam_role", false);
        v20.put("node_iam_role_arn", twenty.nodeRoleArn());
        // The node group's role already has its access entry.
        v20.put("create_access_entry", false);
        return root;
    }

    /** The managed resource instances of one module call, addressed inside the module ("aws_sqs_queue.this[0]"). */
    private static Set<String> managedAddresses(List<OldState.Resource> resources, String module) {
        Set<String> addresses = new TreeSet<>();
        for (OldState.Resource r : resources) {
            if (r.managed() && r.module().equals(module)) {
                addresses.add(r.address().substring(module.length() + 1));
            }
        }
        return addresses;
    }

    /** The same, of the real module's recorded {@code terraform show -json}, whose call is module.karpenter. */
    private static Set<String> recordedAddresses(String stateFile) {
        return managedAddresses(OldState.read(resource("adopt/states/" + stateFile)), "module.karpenter");
    }

    /** One module directory: the version's own file beside the part both stand-ins share. */
    private void copyModule(String version) throws IOException {
        Path target = Files.createDirectories(oldRoot.resolve("modules").resolve(version));
        for (String part : List.of(version, "common")) {
            try (Stream<Path> files = Files.list(resource("adopt/standin-modules/" + part))) {
                for (Path file : files.toList()) {
                    Files.copy(file, target.resolve(file.getFileName().toString()));
                }
            }
        }
    }

    private static Path resource(String name) {
        try {
            return Path.of(
                    Objects.requireNonNull(AdoptionIT.class.getClassLoader().getResource(name))
                            .toURI());
        } catch (URISyntaxException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
