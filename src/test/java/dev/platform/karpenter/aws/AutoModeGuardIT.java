package dev.platform.karpenter.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.AutoModeStub;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TerraformRunner.Outcome;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The EKS Auto Mode guard evaluated by Terraform: moto's DescribeCluster never reports {@code computeConfig}, so a
 * loopback stub in front of it ({@link AutoModeStub}) answers for cluster {@code auto} as an Auto Mode cluster does.
 * The plan of each of the four stacks then stops with the guard's message before anything is applied;
 * {@code beside_auto_mode = true} waives it with the newest release, and is refused with a release AWS's migration
 * does not start from.
 *
 * <p>The IAM and interruption stacks are planned whole. The controller and node-pools stacks also need the helm
 * provider, which the provider mirror here lacks: they are planned reduced to their AWS part, exactly as synthesized
 * (the aws provider blocks and the guarded {@code aws_eks_cluster} read, byte for byte), which is all the guard is.
 */
@IntegrationTest
class AutoModeGuardIT {
    private static final String CLUSTER = "auto";
    private static final String MESSAGE = "EKS cluster auto runs EKS Auto Mode (compute_config enabled): AWS already"
            + " runs Karpenter there, and a second one would fight it over the same nodes. To install this one beside"
            + " it for a deliberate migration to Auto Mode, set beside_auto_mode = true (Karpenter 1.1.x to "
            + KarpenterRelease.newest().minorSeries() + "; docs/guides/auto-mode.md). Nothing was"
            + " changed.";
    private static final List<String> CONCERNS = List.of("iam", "interruption", "karpenter", "nodepools");
    private static final List<String> WITHOUT_HELM = List.of("karpenter", "nodepools");
    private static final ObjectMapper JSON = Json.mapper();

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.perClass();

    @RegisterExtension
    static final Synthesized GUARDED = Synthesized.of(config());

    @RegisterExtension
    static final Synthesized BESIDE = Synthesized.of(config("beside_auto_mode = true"));

    private static AutoModeStub stub;

    @TempDir
    Path reduced;

    @BeforeAll
    static void anAutoModeCluster() {
        MOTO.server().createEksCluster(CLUSTER, "1.32");
        stub = AutoModeStub.in(MOTO.server());
        stub.enableAutoMode(CLUSTER);
    }

    @AfterAll
    static void stopTheStub() {
        if (stub != null) {
            stub.close();
        }
    }

    @Test
    void everyStacksPlanStopsOnAnAutoModeClusterAndNothingIsCreated() throws Exception {
        List<String> rolesBefore = MOTO.server().listRoleNames();
        stub.disableAutoMode(CLUSTER);
        Path iam = stackDir(GUARDED, "iam");
        assertThat(terraform(iam, "init", "-input=false", "-no-color").exitCode())
                .isZero();
        assertThat(terraform(iam, "plan", "-input=false", "-no-color", "-detailed-exitcode")
                        .exitCode())
                .as("the same cluster without Auto Mode plans (2: changes)")
                .isEqualTo(2);
        stub.enableAutoMode(CLUSTER);

        for (String concern : CONCERNS) {
            Path stack = stackDir(GUARDED, concern);
            assertThat(terraform(stack, "init", "-input=false", "-no-color").exitCode())
                    .as(concern)
                    .isZero();
            Outcome plan = terraform(stack, "plan", "-input=false", "-no-color");
            assertThat(plan.exitCode()).as(plan.output()).isEqualTo(1);
            assertThat(plan.oneLine())
                    .as(concern)
                    .contains("Error: Resource postcondition failed", MESSAGE)
                    .containsOnlyOnce("Error:");
        }
        Outcome apply = terraform(iam, "apply", "-auto-approve", "-input=false", "-no-color");
        assertThat(apply.exitCode()).isEqualTo(1);
        assertThat(apply.oneLine()).contains(MESSAGE).doesNotContain("Creating...");
        assertThat(MOTO.server().listRoleNames()).containsExactlyInAnyOrderElementsOf(rolesBefore);
        assertThat(MOTO.server().listPolicyNames()).isEmpty();
    }

    @Test
    void besideAutoModeWaivesTheGuardWhereTheReleaseCanRunBesideIt() throws Exception {
        for (String concern : CONCERNS) {
            Path stack = stackDir(BESIDE, concern);
            assertThat(terraform(stack, "init", "-input=false", "-no-color").exitCode())
                    .as(concern)
                    .isZero();
            Outcome plan = terraform(stack, "plan", "-input=false", "-no-color", "-detailed-exitcode");
            assertThat(plan.exitCode())
                    .as(concern + ": 2 = changes, 0 = none (the AWS part of a Helm stack reads only)\n" + plan.output())
                    .isEqualTo(WITHOUT_HELM.contains(concern) ? 0 : 2);
            assertThat(plan.output()).doesNotContain("Auto Mode");
        }
        assertThatThrownBy(() -> TestConfigs.configFor(CLUSTER, MotoServer.REGION, "1.0.14", "beside_auto_mode = true"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("karpenter_chart_version is \"1.0.14\": allowed 1.1.x to");
    }

    private static ClusterConfig config(String... extraLines) {
        return TestConfigs.configFor(
                CLUSTER, MotoServer.REGION, KarpenterRelease.newest().chartVersion(), extraLines);
    }

    /** The stack's directory; for a stack with Helm, a copy of its AWS part in a directory of its own. */
    private Path stackDir(Synthesized app, String concern) throws IOException {
        Path synthesized = app.stackDir(CLUSTER + "-" + concern);
        if (!WITHOUT_HELM.contains(concern)) {
            return synthesized;
        }
        JsonNode stack = app.stack(CLUSTER + "-" + concern);
        ObjectNode awsPart = JSON.createObjectNode();
        ObjectNode terraform = awsPart.putObject("terraform");
        terraform.putObject("backend").putObject("local").put("path", "terraform.tfstate");
        terraform.putObject("required_providers").set("aws", stack.at("/terraform/required_providers/aws"));
        awsPart.putObject("provider").set("aws", stack.at("/provider/aws"));
        awsPart.putObject("data").set("aws_eks_cluster", stack.at("/data/aws_eks_cluster"));
        assertThat(stack.at("/data/aws_eks_cluster"))
                .as(concern + " reads the cluster")
                .hasSize(1);
        Path dir = Files.createDirectories(
                reduced.resolve(app == BESIDE ? "beside" : "guarded").resolve(concern));
        JSON.writeValue(dir.resolve("cdk.tf.json").toFile(), awsPart);
        return dir;
    }

    /** Terraform through the stub, with one provider process per stack that every command of it reattaches. */
    private static Outcome terraform(Path stackDir, String... args) {
        return new TerraformRunner(stackDir, MOTO.server(), stub.environment()).attempt(args);
    }
}
