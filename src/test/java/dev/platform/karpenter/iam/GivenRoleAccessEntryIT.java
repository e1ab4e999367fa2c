package dev.platform.karpenter.iam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Terraform decides against moto whether a role given by iam_role_arn needs an access entry: not for the role of a
 * managed node group, yes for any other. Plans only: moto does not implement access entries.
 */
@IntegrationTest
class GivenRoleAccessEntryIT {
    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.perClass();

    @Test
    void aNodeGroupsRoleGetsNoEntryAnyOtherRoleDoes() throws IOException {
        MotoServer.EksCluster cluster = MOTO.server().createEksCluster("given-role", "1.32");
        String otherRole = "arn:aws:iam::123456789012:role/self-managed-nodes";

        assertThat(plannedAccessEntries(cluster.nodeRoleArn())).isZero();
        assertThat(plannedAccessEntries(otherRole)).isEqualTo(1);
    }

    /** How many access entries a plan of the IAM stack would create. */
    private static long plannedAccessEntries(String roleArn) throws IOException {
        Synthesized synthesized = Synthesized.of(TestConfigs.configFor(
                "given-role", MotoServer.REGION, TestConfigs.V1, "iam_role_arn = \"" + roleArn + "\""));
        TerraformRunner terraform = new TerraformRunner(synthesized.stackDir("given-role-iam"), MOTO.server());
        terraform.init();
        TerraformRunner.Outcome plan = terraform.plannedChanges();
        assertThat(plan.exitCode()).isEqualTo(2);
        return plan.output()
                .lines()
                .filter(line -> line.contains("aws_eks_access_entry.") && line.contains("will be created"))
                .count();
    }
}
