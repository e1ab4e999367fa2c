package dev.platform.karpenter.iam;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
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
        Files.deleteIfExists(synthesized.dir().getParent().resolve("terraform.given-role-iam.tfstate"));
        TerraformRunner terraform = new TerraformRunner(synthesized.stackDir("given-role-iam"), MOTO.server());
        terraform.init();
        assertThat(terraform.plan()).isEqualTo(2);
        Path log = latestPlanLog();
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(line -> line.contains("aws_eks_access_entry.") && line.contains("will be created"))
                    .count();
        }
    }

    /** The newest by time: the harness numbers its logs per JVM, so names from earlier runs may sort later. */
    private static Path latestPlanLog() throws IOException {
        try (Stream<Path> logs = Files.list(Path.of("target", "terraform-logs"))) {
            return logs.filter(p -> p.getFileName().toString().endsWith("given-role-iam-plan.log"))
                    .max(java.util.Comparator.comparing(GivenRoleAccessEntryIT::modified))
                    .orElseThrow();
        }
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
