package dev.platform.karpenter.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.terraform.StacksProcess.Run;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fleet's deploy by hand, end to end on moto with two clusters: one synthesized output, saved plans of the AWS
 * half (iam and interruption) of both clusters, those plans applied with their digests checked, a plan again with no
 * changes, and a destroy leaving nothing. A plan set changed after planning applies nothing.
 */
@IntegrationTest
class SavedPlansIT {
    private static final List<String> CLUSTERS = List.of("east", "west");

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.perClass();

    @RegisterExtension
    static final Synthesized APP = Synthesized.of(
            TestConfigs.configFor(CLUSTERS.get(0), MotoServer.REGION, TestConfigs.V1),
            TestConfigs.configFor(CLUSTERS.get(1), MotoServer.REGION, TestConfigs.V1));

    @Test
    void plansOnceAppliesExactlyTheSavedPlansThenFindsNothingToChange() throws Exception {
        MotoServer moto = MOTO.server();
        CLUSTERS.forEach(cluster -> moto.createEksCluster(cluster, "1.32"));
        List<String> rolesBefore = moto.listRoleNames();
        Path plans = APP.dir().resolve("plans");

        Run plan = stacks("plan", "--concern", "iam,interruption", "--out", "plans", "--report", "reports");
        assertThat(plan.status()).as(plan.output()).isZero();
        for (String cluster : CLUSTERS) {
            Path dir = plans.resolve(cluster);
            String iamSha = SavedPlans.sha256(dir.resolve(cluster + "-iam.tfplan"));
            assertThat(Files.readAllLines(dir.resolve(SavedPlans.SUMS)))
                    .containsExactly(
                            iamSha + "  " + cluster + "-iam.tfplan",
                            SavedPlans.sha256(dir.resolve(cluster + "-interruption.tfplan")) + "  " + cluster
                                    + "-interruption.tfplan");
            assertThat(Files.readString(APP.dir().resolve("reports").resolve(cluster + ".md")))
                    .contains("| `" + cluster + "-iam` | ✏️ changes: Plan: ")
                    .contains("`" + iamSha + "` |");
        }

        // A plan file changed after planning (here: swapped for the other cluster's) applies nothing at all.
        Path tampered = APP.dir().resolve("tampered");
        for (String cluster : CLUSTERS) {
            Path dir = Files.createDirectories(tampered.resolve(cluster));
            try (var files = Files.list(plans.resolve(cluster))) {
                for (Path file : files.toList()) {
                    Files.copy(file, dir.resolve(file.getFileName()));
                }
            }
        }
        Files.copy(
                plans.resolve("west/west-interruption.tfplan"),
                tampered.resolve("east/east-interruption.tfplan"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Run refused = stacks("apply", "--plans", "tampered", "--cluster", "east");
        assertThat(refused.status()).as(refused.output()).isEqualTo(StacksCommand.EXIT_FAILED);
        assertThat(refused.output())
                .contains("east-interruption.tfplan has SHA-256 ")
                .contains("the plan set changed after planning; nothing applied")
                .doesNotContain("terraform apply");
        assertThat(moto.listRoleNames()).doesNotContain("KarpenterIRSA-east");

        Run apply = stacks("apply", "--plans", "plans", "--parallel", "2");
        assertThat(apply.status()).as(apply.output()).isZero();
        for (String cluster : CLUSTERS) {
            assertThat(apply.output())
                    .contains(cluster + "  ok      applied 2: " + cluster + "-iam, " + cluster + "-interruption"
                            + " | skipped 2: " + cluster + "-karpenter, " + cluster + "-nodepools")
                    .contains("=== " + cluster + "-iam: terraform apply (exit 0)")
                    .doesNotContain("=== " + cluster + "-iam: terraform plan");
            assertThat(moto.listRoleNames()).contains("KarpenterIRSA-" + cluster);
            assertThat(moto.listQueueUrls()).anyMatch(url -> url.endsWith("/" + cluster));
        }

        Run replan = stacks("plan", "--concern", "iam,interruption", "--detailed-exitcode");
        assertThat(replan.status())
                .as("the saved plans left nothing to do:\n" + replan.output())
                .isZero();

        Run destroy = stacks("destroy", "--concern", "iam,interruption");
        assertThat(destroy.status()).as(destroy.output()).isZero();
        assertThat(moto.listRoleNames())
                .filteredOn(name -> !name.startsWith("AWSServiceRoleFor"))
                .containsExactlyInAnyOrderElementsOf(rolesBefore);
        assertThat(moto.listQueueUrls()).isEmpty();
        System.out.printf(
                "SavedPlansIT: bin/stacks, 2 clusters x (iam, interruption): plan --out %.1f s, apply --plans %.1f s,"
                        + " plan %.1f s, destroy %.1f s%n",
                plan.seconds(), apply.seconds(), replan.seconds(), destroy.seconds());
    }

    private static Run stacks(String... args) throws Exception {
        return StacksProcess.run(APP.dir(), MOTO.server(), args);
    }
}
