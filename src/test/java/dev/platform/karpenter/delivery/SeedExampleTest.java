package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.config.ControllerIdentity;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** examples/seed-v0.30.tfvars is the seed guide's exact setup, and it synthesizes. */
@KernelOnlyThroughSynthesized
class SeedExampleTest {
    private static final ClusterConfig SEED = ConfigLoader.read(Path.of("examples/seed-v0.30.tfvars"));

    @Test
    void isTheSeedsSetup() {
        assertThat(SEED.release().chartVersion()).isEqualTo("v0.30.0");
        assertThat(SEED.apis().rendered()).containsExactly(ApiGeneration.V1ALPHA5);
        assertThat(SEED.poolsAndClasses().nodeClass("default").amiFamily()).isEqualTo(AmiFamily.BOTTLEROCKET);
        assertThat(SEED.iam().controllerIdentity()).isEqualTo(ControllerIdentity.IRSA);
        assertThat(SEED.iam().createNodeRole()).isFalse();
        assertThat(SEED.iam().useNamePrefix()).isFalse();
        assertThat(SEED.iam().nodeGroupName()).isEqualTo("default");
        assertThat(SEED.controller().stsRegionalEndpoints()).isTrue();
        assertThat(SEED.namespace() + ":" + SEED.serviceAccount()).isEqualTo("karpenter:karpenter");
    }

    @Test
    void synthesizesProvisionerAndNodeTemplateWithTheStsAnnotation() {
        Synthesized synthesized = Synthesized.of(SEED);

        String pools = synthesized
                .stack("eks-cluster-nodepools")
                .at("/resource/helm_release")
                .elements()
                .next()
                .path("values")
                .get(0)
                .asText();
        assertThat(pools)
                .contains("kind: Provisioner", "kind: AWSNodeTemplate", "amiFamily: Bottlerocket")
                .doesNotContain("NodePool");
        JsonNode controller = synthesized.stack("eks-cluster-karpenter").at("/resource/helm_release/karpenter");
        assertThat(controller.path("version").asText()).isEqualTo("v0.30.0");
        assertThat(controller.path("values").get(0).asText())
                .contains("eks.amazonaws.com/sts-regional-endpoints: \"true\"");
        assertThat(synthesized
                        .stack("eks-cluster-iam")
                        .at("/resource/aws_iam_role")
                        .size())
                .as("the controller role only")
                .isEqualTo(1);
    }
}
