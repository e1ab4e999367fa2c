package dev.platform.karpenter.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Proves the harness end to end on a hand-written stack, independent of the app. */
@IntegrationTest
class HarnessIT {
    // Terraform JSON syntax, as cdktf synthesizes it; the trust policy comes from a data source to avoid escaping.
    // No SQS queue: the provider waits 30 s after creating one and 45 s after deleting one, which proves nothing here.
    private static final String STACK = """
            {
              "terraform": {"required_providers": {"aws": {"source": "hashicorp/aws", "version": "5.100.0"}}},
              "provider": {"aws": [{"region": "us-east-1"}]},
              "data": {
                "aws_iam_policy_document": {
                  "ec2_trust": {
                    "statement": [{
                      "actions": ["sts:AssumeRole"],
                      "principals": [{"type": "Service", "identifiers": ["ec2.amazonaws.com"]}]
                    }]
                  }
                }
              },
              "resource": {
                "aws_cloudwatch_event_rule": {
                  "rule": {"name": "harness-selftest", "event_pattern": "{\\"source\\": [\\"aws.ec2\\"]}"}
                },
                "aws_iam_role": {
                  "role": {
                    "name": "harness-selftest",
                    "assume_role_policy": "${data.aws_iam_policy_document.ec2_trust.json}"
                  }
                }
              },
              "output": {"rule_arn": {"value": "${aws_cloudwatch_event_rule.rule.arn}"}}
            }
            """;

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.resetBeforeEachTest();

    @Test
    void appliesPlansAndDestroysAStackAgainstMoto(@TempDir Path dir) throws IOException {
        Path stack = Files.createDirectories(dir.resolve("harness-selftest"));
        Files.writeString(stack.resolve("cdk.tf.json"), STACK);
        TerraformRunner terraform = new TerraformRunner(stack, MOTO.server());

        terraform.init();
        terraform.validate();
        terraform.apply();

        assertThat(MOTO.server().listRoleNames()).contains("harness-selftest");
        assertThat(MOTO.server().listRuleNames()).containsExactly("harness-selftest");
        assertThat(terraform.output().at("/rule_arn/value").asText())
                .isEqualTo("arn:aws:events:us-east-1:123456789012:rule/harness-selftest");
        assertThat(terraform.plan()).as("plan exit code right after apply").isZero();

        terraform.destroy();

        assertThat(MOTO.server().listRuleNames()).isEmpty();
        assertThat(MOTO.server().listRoleNames()).doesNotContain("harness-selftest");
    }

    @Test
    void commandsSeeTheSchemasOfTheStacksOwnTypesExactlyAsTheProviderDeclaresThem(@TempDir Path dir) throws Exception {
        assumeTrue(TrimmedSchemaProxy.isAvailable(), "no Netty epoll transport here: commands see the whole schema");
        Path stack = Files.createDirectories(dir.resolve("harness-selftest"));
        Files.writeString(stack.resolve("cdk.tf.json"), STACK);
        TerraformRunner terraform = new TerraformRunner(stack, MOTO.server());
        terraform.init();

        JsonNode trimmed = terraform.providersSchema().at("/provider_schemas/registry.terraform.io~1hashicorp~1aws");
        assertThat(Json.fieldNames(trimmed.path("resource_schemas")))
                .containsExactly("aws_cloudwatch_event_rule", "aws_iam_role");
        assertThat(Json.fieldNames(trimmed.path("data_source_schemas"))).containsExactly("aws_iam_policy_document");
        JsonNode whole = wholeSchema(stack);
        assertThat(whole.path("resource_schemas").size()).isGreaterThan(1000);
        for (String type : List.of("aws_cloudwatch_event_rule", "aws_iam_role")) {
            assertThat(trimmed.at("/resource_schemas/" + type)).isEqualTo(whole.at("/resource_schemas/" + type));
        }
        assertThat(trimmed.at("/data_source_schemas/aws_iam_policy_document"))
                .isEqualTo(whole.at("/data_source_schemas/aws_iam_policy_document"));
        assertThat(trimmed.path("provider")).isEqualTo(whole.path("provider"));
        assertThat(trimmed.path("functions")).isEqualTo(whole.path("functions"));
    }

    /** The aws provider's schema as Terraform sees it with no reattached provider: a fresh process, every type. */
    private static JsonNode wholeSchema(Path stack) throws IOException, InterruptedException {
        Path json = stack.resolve("whole-schema.json");
        ProcessBuilder builder = new ProcessBuilder("terraform", "providers", "schema", "-json")
                .directory(stack.toFile())
                .redirectOutput(json.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        TerraformRunner.pointAtMoto(builder.environment(), MOTO.server());
        assertThat(builder.start().waitFor())
                .as("terraform providers schema -json")
                .isZero();
        return Json.read(json).at("/provider_schemas/registry.terraform.io~1hashicorp~1aws");
    }

    @Test
    void seedsAnEksClusterWithOidcProviderAndNodeGroup() {
        MotoServer.EksCluster cluster = MOTO.server().createEksCluster("selftest", "1.29");

        assertThat(cluster.clusterName()).isEqualTo("selftest");
        assertThat(cluster.issuerUrl()).startsWith("https://oidc.eks.us-east-1.amazonaws.com/id/");
        assertThat(cluster.oidcProviderArn())
                .endsWith(":oidc-provider/" + cluster.issuerUrl().substring("https://".length()));
        assertThat(cluster.nodeRoleName()).isEqualTo("selftest-node-role");
        assertThat(cluster.nodeRoleArn()).endsWith(":role/selftest-node-role");
        assertThat(MOTO.server().listRoleNames()).contains("selftest-node-role");

        JsonNode nodeGroup = MOTO.server().boto3("""
                eks = boto3.client("eks")
                emit(eks.describe_nodegroup(clusterName=args[0], nodegroupName="default")["nodegroup"])
                """, cluster.clusterName());
        assertThat(nodeGroup.get("nodeRole").asText()).isEqualTo(cluster.nodeRoleArn());
        assertThat(nodeGroup.get("version").asText()).isEqualTo("1.29");
    }
}
