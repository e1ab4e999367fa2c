package dev.platform.karpenter.iam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import org.junit.jupiter.api.Test;

/** The spot service-linked role in the synthesized IAM stack; IamStackIT applies both cases to moto. */
@KernelOnlyThroughSynthesized
class SpotServiceLinkedRoleTest {
    private static final Synthesized APP = Synthesized.of(
            TestConfigs.configFor("spot", "eu-west-1", TestConfigs.V1),
            TestConfigs.configFor(
                    "ondemand",
                    "eu-west-1",
                    TestConfigs.V1,
                    "capacity_types = [\"on-demand\"]",
                    "node_pools = [{ name = \"batch\", architectures = [\"arm64\"] }]"),
            // Spot only through a pool's spec: the typed capacity_types say on-demand everywhere.
            TestConfigs.configFor(
                    "specspot",
                    "eu-west-1",
                    TestConfigs.V1,
                    "capacity_types = [\"on-demand\"]",
                    "node_pools = [{ name = \"batch\", spec = { template = { spec = { requirements = [{ key ="
                            + " \"karpenter.sh/capacity-type\", operator = \"NotIn\", values = [\"on-demand\"] }]"
                            + " } } } }]"));

    @Test
    void looksUpTheRoleAndCreatesItOnceWithTheCliOnlyWhenMissing() {
        JsonNode stack = APP.stack("spot-iam");
        JsonNode lookup = Synthesized.dataSources(stack, "aws_iam_roles");
        assertThat(lookup).hasSize(1);
        String lookupId = lookup.fieldNames().next();
        assertThat(lookup.path(lookupId).path("path_prefix").asText())
                .isEqualTo("/aws-service-role/spot.amazonaws.com/");

        JsonNode once = Synthesized.onlyResource(stack, "terraform_data");
        assertThat(once.path("input").asText())
                .isEqualTo("${(length(tolist(data.aws_iam_roles." + lookupId + ".names)) < 1)}");
        assertThat(once.at("/lifecycle/ignore_changes/0").asText())
                .as("decided once: no diff later")
                .isEqualTo("input");
        JsonNode provisioner = once.path("provisioner").get(0).path("local-exec");
        assertThat(provisioner.path("command").asText())
                .isEqualTo("${self.input ? \"aws iam create-service-linked-role "
                        + "--aws-service-name spot.amazonaws.com --region eu-west-1 || test $(aws iam list-roles"
                        + " --path-prefix /aws-service-role/spot.amazonaws.com/ --query 'length(Roles)' --output"
                        + " text --region eu-west-1) -gt 0\" : \"echo The EC2 Spot service-linked role exists.\"}");
        assertThat(provisioner.has("when")).as("nothing runs on destroy").isFalse();
        assertThat(Synthesized.resources(stack, "aws_iam_service_linked_role").isMissingNode())
                .as("never a resource that destroy would delete")
                .isTrue();
    }

    @Test
    void aPoolWhoseSpecAllowsSpotGetsTheRoleToo() {
        JsonNode stack = APP.stack("specspot-iam");

        assertThat(Synthesized.dataSources(stack, "aws_iam_roles")
                        .path(Synthesized.onlyId(Synthesized.dataSources(stack, "aws_iam_roles")))
                        .path("path_prefix")
                        .asText())
                .isEqualTo("/aws-service-role/spot.amazonaws.com/");
        assertThat(Synthesized.onlyResource(stack, "terraform_data")
                        .path("provisioner")
                        .get(0)
                        .at("/local-exec/command")
                        .asText())
                .contains("aws iam create-service-linked-role --aws-service-name spot.amazonaws.com");
    }

    @Test
    void nothingWhenNoPoolAllowsSpot() {
        JsonNode stack = APP.stack("ondemand-iam");

        assertThat(Synthesized.dataSources(stack, "aws_iam_roles").isMissingNode())
                .isTrue();
        assertThat(Synthesized.resources(stack, "terraform_data").isMissingNode())
                .isTrue();
    }
}
