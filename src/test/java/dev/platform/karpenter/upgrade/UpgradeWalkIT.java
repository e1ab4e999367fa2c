package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.KarpenterApp;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One moto account and cluster carried from the seed's v0.30.0 to the newest release, one allowed step at a time, with the IAM
 * and interruption stacks synthesized and applied at every step (their state kept in one project directory, as on
 * a laptop), the two side by side as {@code deploy '*'} runs them. No step deletes or replaces the controller role,
 * the node role or the queue (read from each plan's JSON, and that plan is what is applied; the node role is the node
 * group's, as in the seed), every step plans empty right after its apply, and the step guard refuses two disallowed
 * jumps at plan.
 */
@IntegrationTest
class UpgradeWalkIT {
    private static final String NAME = "walk";
    private static final List<String> KEPT = List.of("aws_iam_role", "aws_sqs_queue");
    private static final List<String> STACKS = List.of(NAME + "-iam", NAME + "-interruption");
    // Terraform runs in other processes; these threads only wait for it, one per stack.
    private static final ExecutorService SIDE_BY_SIDE = Executors.newFixedThreadPool(STACKS.size(), task -> {
        Thread thread = new Thread(task, "walk-stack");
        thread.setDaemon(true);
        return thread;
    });

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.resetBeforeEachTest();

    @TempDir
    Path project;

    /** The seed's setup: nodes reuse the role of the managed node group. */
    private String nodeRole;

    @Test
    void theSeedsClusterWalksTo114WithoutReplacingItsRolesOrQueue() throws IOException {
        nodeRole = MOTO.server().createEksCluster(NAME, "1.27").nodeRoleName();
        deploy("v0.30.0");
        Map<String, String> identities = identities();
        assertThat(identities).hasSize(3);

        String refusedJump = refuse(TestConfigs.V1);
        assertThat(refusedJump)
                .contains("Karpenter v0.30.0 is deployed (read back from the state of walk-nodepools, else walk-iam):"
                        + " karpenter_chart_version " + TestConfigs.V1
                        + " cannot follow it: upstream allows no jump from v0.30.x to " + TestConfigs.V1_SERIES)
                .contains("the next allowed step is v0.31.5");

        deploy("v0.31.5");
        deploy("v0.32.10");
        assertThat(policyNames()).contains("KarpenterController-walk-NodeLifecycleV1alpha5");
        assertThat(MOTO.server().listInstanceProfileNames()).contains("KarpenterNodeInstanceProfile-walk");
        deploy("v0.32.10", "retired_api = \"v1alpha5\"");
        assertThat(policyNames()).doesNotContain("KarpenterController-walk-NodeLifecycleV1alpha5");
        assertThat(MOTO.server().listInstanceProfileNames()).doesNotContain("KarpenterNodeInstanceProfile-walk");
        deploy("0.37.8", "retired_api = \"v1alpha5\"");
        deploy("1.0.14", "retired_api = \"v1alpha5\"");
        assertThat(policyNames())
                .contains("KarpenterController-walk-NodeLifecycleV1beta1", "KarpenterController-walk-ZonalShift");

        String refusedV1beta1 = refuse(TestConfigs.V1, "retired_api = \"v1alpha5\"");
        assertThat(refusedV1beta1)
                .contains("Karpenter 1.0.14 is deployed")
                .contains("1.1 and later no longer serve v1beta1")
                .contains("the next allowed step is the deployed release again with retired_api = \"v1beta1\"");

        deploy("1.0.14", "retired_api = \"v1beta1\"");
        deploy(TestConfigs.V1, "retired_api = \"v1beta1\"");
        assertThat(policyNames()).doesNotContain("KarpenterController-walk-NodeLifecycleV1beta1");
        assertThat(identities()).as("same role ids and queue after seven steps").isEqualTo(identities);

        System.out.println("step guard, v0.30.0 -> " + TestConfigs.V1 + ": " + refusedJump);
        System.out.println("step guard, 1.0.14 (v1beta1 pools) -> " + TestConfigs.V1 + ": " + refusedV1beta1);
    }

    /**
     * Synthesizes {@code version} and applies the IAM and interruption stacks, checking each plan. The two stacks
     * run side by side (neither reads the other's resources): both plan against the recorded release before either
     * applies its saved plan, and both plan again once both are applied.
     */
    private void deploy(String version, String... extraLines) throws IOException {
        List<TerraformRunner> stacks = stacks(synthesize(version, extraLines));
        List<List<TerraformRunner.PlannedChange>> plans = eachStack(stacks, terraform -> {
            initOnce(terraform);
            return terraform.planToApply();
        });
        for (List<TerraformRunner.PlannedChange> plan : plans) {
            for (TerraformRunner.PlannedChange change : plan) {
                if (KEPT.contains(change.type())) {
                    assertThat(change.action())
                            .as(version + ": " + change.address())
                            .isNotIn("delete", "replace");
                }
            }
        }
        eachStack(stacks, terraform -> {
            terraform.applyPlan();
            return null;
        });
        List<Integer> replans = eachStack(stacks, TerraformRunner::plan);
        assertThat(replans)
                .as(version + ": " + STACKS + " plan empty after their apply")
                .containsOnly(0);
        assertThat(stacks.get(0).output().at("/karpenter_chart_version/value").asText())
                .isEqualTo(version);
    }

    /** Plans {@code version} on both stacks, expecting the guard to fail both; returns the IAM stack's message. */
    private String refuse(String version, String... extraLines) throws IOException {
        List<String> outputs = eachStack(stacks(synthesize(version, extraLines)), terraform -> {
            initOnce(terraform);
            return terraform.failingPlan();
        });
        for (int i = 0; i < STACKS.size(); i++) {
            assertThat(outputs.get(i)).as(STACKS.get(i)).contains("Error: Module output value precondition failed");
        }
        // Terraform wraps the message at 80 columns.
        String iamOutput = outputs.get(0);
        return iamOutput
                .substring(iamOutput.indexOf("Karpenter "))
                .replaceAll("\\s+", " ")
                .trim();
    }

    /**
     * Inits a stack on its first synthesis only: every step synthesizes into the same directory, which keeps
     * Terraform's working files as it does on a laptop, and the provider and backend never change along the walk.
     */
    private static void initOnce(TerraformRunner terraform) {
        if (!terraform.isInitialized()) {
            terraform.init();
        }
    }

    /** The IAM stack's runner, then the interruption stack's, in the synthesized {@code out}. */
    private static List<TerraformRunner> stacks(Path out) {
        return STACKS.stream()
                .map(stack -> new TerraformRunner(out.resolve("stacks").resolve(stack), MOTO.server()))
                .toList();
    }

    /** Runs {@code step} on every stack at once and returns the results in stack order; the first failure fails. */
    private static <T> List<T> eachStack(List<TerraformRunner> stacks, Function<TerraformRunner, T> step) {
        List<Future<T>> running = new ArrayList<>();
        for (TerraformRunner terraform : stacks) {
            running.add(SIDE_BY_SIDE.submit(() -> step.apply(terraform)));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> result : running) {
            try {
                results.add(result.get());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return results;
    }

    private Path synthesize(String version, String... extraLines) throws IOException {
        List<String> lines = new ArrayList<>(List.of(extraLines));
        ClusterConfig config = TestConfigs.configFor(NAME, MotoServer.REGION, version, lines.toArray(String[]::new));
        Path out = project.resolve("cdktf.out");
        KarpenterApp.synthesize(List.of(config), out, "../../..");
        return out;
    }

    /** Role ids (which change when a role is replaced) and the queue's ARN. */
    private Map<String, String> identities() {
        JsonNode ids = MOTO.server().boto3("""
                iam, sqs = boto3.client("iam"), boto3.client("sqs")
                url = sqs.get_queue_url(QueueName=args[0])["QueueUrl"]
                emit({"controller": iam.get_role(RoleName="KarpenterIRSA-" + args[0])["Role"]["RoleId"],
                      "node": iam.get_role(RoleName=args[1])["Role"]["RoleId"],
                      "queue": sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn", "CreatedTimestamp"])["Attributes"]})
                """, NAME, nodeRole);
        Map<String, String> identities = new LinkedHashMap<>();
        ids.fields()
                .forEachRemaining(
                        field -> identities.put(field.getKey(), field.getValue().toString()));
        return identities;
    }

    private static List<String> policyNames() {
        return MOTO.server().listPolicyNames();
    }
}
