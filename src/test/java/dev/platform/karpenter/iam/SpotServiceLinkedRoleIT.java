package dev.platform.karpenter.iam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The IAM stack applied to moto with and without the account's EC2 Spot service-linked role (moto names it
 * AWSServiceRoleForspot and, as IAM does, refuses to create it twice): created when missing, left alone when present,
 * an empty plan right after either apply, and still there after destroy.
 */
@IntegrationTest
class SpotServiceLinkedRoleIT {
    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.resetBeforeEachTest();

    @Test
    void createsTheRoleWhenTheAccountLacksItAndKeepsItOnDestroy() throws IOException {
        TerraformRunner terraform = iamStack("spot-missing");
        assertThat(spotRoles()).isEmpty();

        terraform.init();
        terraform.apply();

        assertThat(spotRoles()).containsExactly("AWSServiceRoleForspot");
        assertThat(terraform.plan())
                .as("plan exit code right after apply (2 = changes)")
                .isZero();

        terraform.destroy();
        assertThat(spotRoles())
                .as("the account's role outlives this cluster's stacks")
                .containsExactly("AWSServiceRoleForspot");
        assertThat(MOTO.server().listRoleNames()).doesNotContain("KarpenterIRSA-spot-missing");
    }

    @Test
    void leavesAnExistingRoleAlone() throws IOException {
        MOTO.server().boto3("""
                emit(boto3.client("iam").create_service_linked_role(AWSServiceName="spot.amazonaws.com")["Role"]["RoleName"])
                """);
        String createdAt = roleCreateDate();
        TerraformRunner terraform = iamStack("spot-present");

        terraform.init();
        terraform.apply();

        assertThat(spotRoles()).containsExactly("AWSServiceRoleForspot");
        assertThat(roleCreateDate()).as("the same role, not a new one").isEqualTo(createdAt);
        assertThat(terraform.plan())
                .as("plan exit code right after apply (2 = changes)")
                .isZero();
        terraform.destroy();
        assertThat(spotRoles()).containsExactly("AWSServiceRoleForspot");
    }

    private static TerraformRunner iamStack(String cluster) throws IOException {
        MOTO.server().createEksCluster(cluster, "1.32");
        Synthesized synthesized = Synthesized.of(TestConfigs.configFor(cluster, MotoServer.REGION, TestConfigs.V1));
        // Test synths keep local state next to their temporary directory, one path per stack name.
        Files.deleteIfExists(synthesized.dir().getParent().resolve("terraform." + cluster + "-iam.tfstate"));
        return new TerraformRunner(synthesized.stackDir(cluster + "-iam"), MOTO.server());
    }

    private static List<String> spotRoles() {
        JsonNode names = MOTO.server().boto3("""
                pages = boto3.client("iam").get_paginator("list_roles").paginate(PathPrefix="/aws-service-role/spot.amazonaws.com/")
                emit([r["RoleName"] for p in pages for r in p["Roles"]])
                """);
        List<String> result = new ArrayList<>();
        names.forEach(name -> result.add(name.asText()));
        return result;
    }

    private static String roleCreateDate() {
        return MOTO.server().boto3("""
                emit(boto3.client("iam").get_role(RoleName="AWSServiceRoleForspot")["Role"]["CreateDate"])
                """).asText();
    }
}
