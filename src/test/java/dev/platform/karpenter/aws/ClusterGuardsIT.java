package dev.platform.karpenter.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The version guards evaluated by Terraform against moto clusters of given Kubernetes versions, on the two stacks
 * {@code deploy '*'} plans first (IAM and interruption, which depend on nothing): a mismatch stops their plans, so
 * even an apply creates nothing; a match plans.
 */
@IntegrationTest
class ClusterGuardsIT {
    private static final List<String> FIRST_STACKS = List.of("iam", "interruption");

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.resetBeforeEachTest();

    @ParameterizedTest(name = "{0} on Kubernetes {1} ({2}) stops")
    @CsvSource(
            delimiter = '|',
            value = {
                "1.0.4   | 1.31 | Bottlerocket | Karpenter 1.0.4 supports Kubernetes 1.25 to 1.30, but EKS cluster c1 runs Kubernetes 1.31: set karpenter_chart_version to a release that supports it (1.0.5 to 1.14.x). Nothing was changed.",
                "v0.30.0 | 1.32 | Bottlerocket | Karpenter v0.30.0 supports Kubernetes 1.23 to 1.27, but EKS cluster c1 runs Kubernetes 1.32: set karpenter_chart_version to a release that supports it (1.2.x to 1.14.x). Nothing was changed.",
                "1.14.1  | 1.33 | AL2          | ami_family = \"AL2\" cannot run on EKS cluster c1: it runs Kubernetes 1.33, and EKS publishes no AL2 AMI for Kubernetes 1.33 or later. Set ami_family to \"Bottlerocket\" or \"AL2023\". Nothing was changed.",
            })
    void aMismatchStopsThePlanOfTheFirstStacksAndNothingIsCreated(
            String chart, String kubernetes, String amiFamily, String message) throws IOException {
        MOTO.server().createEksCluster("c1", kubernetes);
        Synthesized synthesized = Synthesized.of(config(chart, amiFamily));
        List<String> rolesBefore = MOTO.server().listRoleNames();

        for (String concern : FIRST_STACKS) {
            TerraformRunner terraform = new TerraformRunner(synthesized.stackDir("c1-" + concern), MOTO.server());
            terraform.init();

            // An apply plans first: its refusal is the plan's (what `cdktf diff` and the pull-request plan show),
            // and it proves that nothing is created, so no separate plan is run.
            TerraformRunner.Outcome apply = terraform.attempt("apply", "-auto-approve", "-input=false", "-no-color");
            assertThat(apply.exitCode()).as(apply.output()).isEqualTo(1);
            assertThat(apply.oneLine())
                    .as(concern)
                    .contains("Error: Resource postcondition failed", message)
                    .doesNotContain("Creating...");
        }
        assertThat(MOTO.server().listRoleNames()).containsExactlyInAnyOrderElementsOf(rolesBefore);
        assertThat(MOTO.server().listPolicyNames()).isEmpty();
        assertThat(MOTO.server().listQueueUrls()).isEmpty();
        assertThat(MOTO.server().listRuleNames()).isEmpty();
    }

    @Test
    void release105PlansOnKubernetes131() {
        MOTO.server().createEksCluster("c1", "1.31");
        Synthesized synthesized = Synthesized.of(config("1.0.5", "Bottlerocket"));

        for (String concern : FIRST_STACKS) {
            TerraformRunner terraform = new TerraformRunner(synthesized.stackDir("c1-" + concern), MOTO.server());
            terraform.init();
            assertThat(terraform.plan())
                    .as(concern + ": plan exit code (2 = changes to apply)")
                    .isEqualTo(2);
        }
    }

    /** A Windows node class plans on an IPv4 cluster and stops on an IPv6 one, where Windows nodes cannot run. */
    @Test
    void aWindowsNodeClassStopsOnAnIpv6Cluster() throws IOException {
        String windows = "node_classes = [{ name = \"win\", ami_family = \"Windows2022\" }]\n"
                + "node_pools = [{ name = \"win\", node_class = \"win\" }]";
        MOTO.server().createEksCluster("v4", "1.33");
        MOTO.server().createEksCluster("v6", "1.33", "ipv6");
        Synthesized synthesized = Synthesized.of(
                TestConfigs.configFor("v4", MotoServer.REGION, TestConfigs.V1, windows),
                TestConfigs.configFor("v6", MotoServer.REGION, TestConfigs.V1, windows));

        TerraformRunner ipv4 = new TerraformRunner(synthesized.stackDir("v4-interruption"), MOTO.server());
        ipv4.init();
        assertThat(ipv4.plan()).as("plan exit code (2 = changes to apply)").isEqualTo(2);

        TerraformRunner ipv6 = new TerraformRunner(synthesized.stackDir("v6-interruption"), MOTO.server());
        ipv6.init();
        TerraformRunner.Outcome apply = ipv6.attempt("apply", "-auto-approve", "-input=false", "-no-color");
        assertThat(apply.exitCode()).as(apply.output()).isEqualTo(1);
        assertThat(apply.oneLine())
                .contains(
                        "Error: Resource postcondition failed",
                        "node class \"win\" launches Windows2022 nodes, but EKS cluster v6 runs IPv6")
                .doesNotContain("Creating...");
        assertThat(MOTO.server().listQueueUrls()).isEmpty();
    }

    /** A guard judges what would be installed; it must never keep a user from removing what is installed. */
    @Test
    void aGuardNeverBlocksDestroy() throws IOException {
        MOTO.server().createEksCluster("guard-destroy", "1.31");
        Synthesized installed = Synthesized.of(configFor("guard-destroy", "1.0.5"));
        // Test synths keep local state inside their own directory.
        String state = "terraform.guard-destroy-iam.tfstate";
        TerraformRunner apply = new TerraformRunner(installed.stackDir("guard-destroy-iam"), MOTO.server());
        apply.init();
        apply.apply();
        assertThat(MOTO.server().listRoleNames()).contains("KarpenterIRSA-guard-destroy");

        // The same state, now configured with a chart that does not support the cluster: destroy still works.
        Synthesized reconfigured = Synthesized.of(configFor("guard-destroy", "1.0.4"));
        Files.copy(installed.dir().resolve(state), reconfigured.dir().resolve(state));
        TerraformRunner destroy = new TerraformRunner(reconfigured.stackDir("guard-destroy-iam"), MOTO.server());
        destroy.init();
        destroy.destroy();

        assertThat(MOTO.server().listRoleNames()).doesNotContain("KarpenterIRSA-guard-destroy");
        assertThat(MOTO.server().listPolicyNames()).isEmpty();
    }

    private static ClusterConfig config(String chart, String amiFamily) {
        return TestConfigs.configFor("c1", MotoServer.REGION, chart, "ami_family = \"" + amiFamily + "\"");
    }

    private static ClusterConfig configFor(String name, String chart) {
        return TestConfigs.configFor(name, MotoServer.REGION, chart);
    }
}
