package dev.platform.karpenter.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * bin/stacks end to end, as a process, with Terraform alone (no cdktf CLI, no Node.js): the AWS half (IAM and
 * interruption stacks) of two clusters applied side by side to moto, planned again with no changes, and destroyed,
 * leaving nothing behind. Providers come only from the mirror the command configures itself.
 */
@IntegrationTest
class StacksCommandIT {
    private static final List<String> CLUSTERS = List.of("east", "west");

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.perClass();

    @RegisterExtension
    static final Synthesized APP = Synthesized.of(
            TestConfigs.configFor(CLUSTERS.get(0), MotoServer.REGION, TestConfigs.V1),
            TestConfigs.configFor(CLUSTERS.get(1), MotoServer.REGION, TestConfigs.V1));

    @Test
    void appliesReplansAndDestroysTheAwsHalfOfTwoClusters() throws Exception {
        MotoServer moto = MOTO.server();
        CLUSTERS.forEach(cluster -> moto.createEksCluster(cluster, "1.32"));
        List<String> rolesBefore = moto.listRoleNames();

        StacksProcess.Run apply = stacks("apply", "--concern", "iam,interruption", "--parallel", "2");
        assertThat(apply.status()).as(apply.output()).isZero();
        assertThat(apply.output())
                .contains("east  ok      applied 2: east-iam, east-interruption")
                .contains("west  ok      applied 2: west-iam, west-interruption")
                .doesNotContain("east-karpenter", "east-nodepools", "west-karpenter", "west-nodepools");
        for (String cluster : CLUSTERS) {
            assertThat(moto.listRoleNames()).contains("KarpenterIRSA-" + cluster);
            assertThat(moto.listQueueUrls()).anyMatch(url -> url.endsWith("/" + cluster));
            assertThat(moto.listRuleNames()).contains(cluster + "-SpotInterrupt");
        }
        assertThat(moto.listRoleNames())
                .as("both clusters asked for the account's spot role at once; one made it, the other found it")
                .containsOnlyOnce("AWSServiceRoleForspot");

        StacksProcess.Run replan =
                stacks("plan", "--concern", "iam,interruption", "--detailed-exitcode", "--report", "plans");
        assertThat(replan.status())
                .as("re-plans are empty:\n" + replan.output())
                .isZero();
        for (String cluster : CLUSTERS) {
            assertThat(Files.readString(APP.dir().resolve("plans").resolve(cluster + ".md")))
                    .contains("| `" + cluster + "-iam` | ✅ no changes |")
                    .contains("| `" + cluster + "-interruption` | ✅ no changes |");
        }

        StacksProcess.Run destroy = stacks("destroy", "--concern", "iam,interruption");
        assertThat(destroy.status()).as(destroy.output()).isZero();
        assertThat(destroy.output())
                .contains("east  ok      destroyed 2: east-interruption, east-iam")
                .contains("west  ok      destroyed 2: west-interruption, west-iam");
        // The EC2 Spot service-linked role is the account's and deliberately outlives destroy.
        assertThat(moto.listRoleNames())
                .filteredOn(name -> !name.startsWith("AWSServiceRoleFor"))
                .containsExactlyInAnyOrderElementsOf(rolesBefore);
        assertThat(moto.listPolicyNames()).isEmpty();
        assertThat(moto.listInstanceProfileNames()).isEmpty();
        assertThat(moto.listQueueUrls()).isEmpty();
        assertThat(moto.listRuleNames()).isEmpty();
        System.out.printf(
                "StacksCommandIT: bin/stacks, 2 clusters x (iam, interruption): apply %.1f s, plan %.1f s,"
                        + " destroy %.1f s%n",
                apply.seconds(), replan.seconds(), destroy.seconds());
    }

    private static StacksProcess.Run stacks(String... args) throws IOException, InterruptedException {
        return StacksProcess.run(APP.dir(), MOTO.server(), args);
    }
}
