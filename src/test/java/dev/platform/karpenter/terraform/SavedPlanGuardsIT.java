package dev.platform.karpenter.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.terraform.StacksProcess.Run;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What stops an apply of saved plans, on moto: Terraform's refusal of a plan whose state moved after planning, and a
 * downstream stack whose plan read an upstream output that the upstream's apply then changed.
 *
 * <p>The app's own downstream stacks (controller, node pools) need a Kubernetes API that moto has not, so the
 * downstream here is a stack of the test's, added to the real output as the app adds its own: it reads the IAM
 * stack's controller role ARN through terraform_remote_state and keeps it in a terraform_data resource.
 */
@IntegrationTest
class SavedPlanGuardsIT {
    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.resetBeforeEachTest();

    @Test
    void aPlanWhoseStateMovedIsRefusedAndTheRunSaysToPlanAgain() throws Exception {
        MotoServer moto = MOTO.server();
        moto.createEksCluster("stale", "1.32");
        Synthesized app = Synthesized.of(TestConfigs.configFor("stale", MotoServer.REGION, TestConfigs.V1));
        try {
            Run plan = StacksProcess.run(app.dir(), moto, "plan", "--concern", "iam", "--out", "plans");
            assertThat(plan.status()).as(plan.output()).isZero();
            // another apply (another run, someone by hand) after the plan was made
            Run other = StacksProcess.run(app.dir(), moto, "apply", "--concern", "iam");
            assertThat(other.status()).as(other.output()).isZero();

            Run apply = StacksProcess.run(app.dir(), moto, "apply", "--plans", "plans");

            assertThat(apply.status()).as(apply.output()).isEqualTo(StacksCommand.EXIT_PLAN_AGAIN);
            assertThat(apply.output())
                    .contains("Error: Saved plan is stale")
                    .contains("stale  STOPPED  ")
                    .contains("stale plan 1: stale-iam")
                    .contains("stale-iam: Terraform refused the saved plan: the stack's state changed after it was"
                            + " planned (another apply ran since); re-run the plan and approve the new one")
                    .contains("1 of 1 clusters stopped before a plan nobody approved: re-run the plan");
        } finally {
            app.afterAll(null);
        }
    }

    @Test
    void aDownstreamPlanThatAnUpstreamApplyWouldChangeIsNotApplied() throws Exception {
        MotoServer moto = MOTO.server();
        moto.createEksCluster("guard", "1.32");
        Synthesized deployed =
                withConsumer(Synthesized.of(TestConfigs.configFor("guard", MotoServer.REGION, TestConfigs.V1)));
        // the next configuration: a controller role with a generated name, so a new role and a new ARN
        Synthesized next = withConsumer(Synthesized.of(
                TestConfigs.configFor("guard", MotoServer.REGION, TestConfigs.V1, "irsa_use_name_prefix = true")));
        try {
            Run first = StacksProcess.run(deployed.dir(), moto, "apply", "--concern", "iam,consumer");
            assertThat(first.status()).as(first.output()).isZero();
            for (String stack : new String[] {"guard-iam", "guard-consumer"}) {
                Files.copy(
                        deployed.dir().resolve("terraform." + stack + ".tfstate"),
                        next.dir().resolve("terraform." + stack + ".tfstate"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            String approvedArn = consumerInput(next.dir());
            assertThat(approvedArn).endsWith(":role/KarpenterIRSA-guard");

            Run plan = StacksProcess.run(next.dir(), moto, "plan", "--concern", "iam,consumer", "--out", "plans");
            assertThat(plan.status()).as(plan.output()).isZero();
            assertThat(plan.output())
                    .as("the consumer's plan read the ARN the state holds now")
                    .contains("changes 1: guard-iam")
                    .contains("no changes 1: guard-consumer");

            Run apply = StacksProcess.run(next.dir(), moto, "apply", "--plans", "plans");

            assertThat(apply.status()).as(apply.output()).isEqualTo(StacksCommand.EXIT_PLAN_AGAIN);
            assertThat(apply.output())
                    .contains("guard  STOPPED  applied 1: guard-iam | skipped 3: guard-interruption, guard-karpenter,"
                            + " guard-nodepools | plan changed 1: guard-consumer")
                    .contains("guard-consumer: not applied: guard-iam changed an output it reads"
                            + " (iam.karpenter_irsa_arn), and its plan now differs from the approved one"
                            + " (terraform_data.controller_role; now: Plan: ")
                    .contains("re-run the plan and approve the new one");
            assertThat(consumerInput(next.dir()))
                    .as("the consumer's state is as approved: nothing applied to it")
                    .isEqualTo(approvedArn);
            assertThat(moto.listRoleNames())
                    .anyMatch(name -> name.startsWith("KarpenterIRSA-guard-"))
                    .doesNotContain("KarpenterIRSA-guard");
        } finally {
            deployed.afterAll(null);
            next.afterAll(null);
        }
    }

    /** The app's output with stack guard-consumer, which reads guard-iam's controller role ARN. */
    private static Synthesized withConsumer(Synthesized app) throws Exception {
        Path dir = Files.createDirectories(app.stackDir("guard-consumer"));
        Files.writeString(dir.resolve("cdk.tf.json"), """
                {
                  "terraform": {"backend": {"local": {"path": "../../terraform.guard-consumer.tfstate"}}},
                  "data": {"terraform_remote_state": {"iam": {
                    "backend": "local", "config": {"path": "../../terraform.guard-iam.tfstate"}}}},
                  "resource": {"terraform_data": {"controller_role": {
                    "input": "${data.terraform_remote_state.iam.outputs.karpenter_irsa_arn}"}}}
                }
                """);
        ObjectNode manifest = (ObjectNode) Json.read(app.dir().resolve("manifest.json"));
        ObjectNode consumer = ((ObjectNode) manifest.path("stacks")).putObject("guard-consumer");
        consumer.put("workingDirectory", "stacks/guard-consumer");
        consumer.putArray("dependencies").add("guard-iam");
        Files.writeString(app.dir().resolve("manifest.json"), manifest.toString());
        return app;
    }

    /** The controller role ARN the consumer's state holds. */
    private static String consumerInput(Path dir) {
        for (var resource :
                Json.read(dir.resolve("terraform.guard-consumer.tfstate")).path("resources")) {
            if (resource.path("type").asText().equals("terraform_data")) {
                return resource.at("/instances/0/attributes/input/value").asText();
            }
        }
        throw new AssertionError("no terraform_data in the consumer's state");
    }
}
