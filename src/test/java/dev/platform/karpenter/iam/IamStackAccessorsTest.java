package dev.platform.karpenter.iam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformOutputConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.ScratchDirectories;
import dev.platform.karpenter.testing.TestConfigs;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The accessors other stacks read (controller, node pools) are Terraform references, which cdktf turns into an
 * output of the IAM stack and a terraform_remote_state read in the consumer.
 */
class IamStackAccessorsTest {
    private static final Path DIR = synthesize();
    private static final Pattern REMOTE_OUTPUT = Pattern.compile(
            "data\\.terraform_remote_state\\.cross-stack-reference-input-(\\S+?)\\.outputs\\.(cross-stack-output-[\\w.-]+)");

    /** Cluster "v0" reuses the node group role at 0.30; cluster "v1" creates one at the newest release; one consumer reads both. */
    private static Path synthesize() {
        Path dir = ScratchDirectories.create("accessors-");
        App app = new App(AppConfig.builder().outdir(dir.toString()).build());
        TerraformStack consumer = new TerraformStack(app, "consumer");
        for (IamStack iam : new IamStack[] {
            new IamStack(
                    app,
                    TestConfigs.parse(
                            "cluster_name = \"v0\"\nregion = \"us-west-2\"\nkarpenter_chart_version = \"v0.30.0\"\n")),
            new IamStack(
                    app,
                    TestConfigs.parse("cluster_name = \"v1\"\nregion = \"us-west-2\"\nkarpenter_chart_version = \""
                            + TestConfigs.V1 + "\"\ncreate_iam_role = true\n"))
        }) {
            String cluster = iam.toString().replace("-iam", "");
            output(consumer, cluster + "_controllerRoleArn", iam.controllerRoleArn());
            output(consumer, cluster + "_nodeRoleArn", iam.nodeRoleArn());
            output(consumer, cluster + "_nodeRoleName", iam.nodeRoleName());
            output(consumer, cluster + "_instanceProfileName", iam.instanceProfileName());
        }
        app.synth();
        return dir;
    }

    private static void output(TerraformStack stack, String name, String value) {
        new TerraformOutput(
                stack, name, TerraformOutputConfig.builder().value(value).build());
    }

    /** The exported addresses are spelled out: they are state addresses, and a change would replace the roles. */
    @ParameterizedTest(name = "{0}.{1}() -> {2}")
    @CsvSource({
        "v0, controllerRoleArn, aws_iam_role.controller-role_D5C48E6C.arn",
        "v0, nodeRoleArn, data.aws_eks_node_group.node-role_node-group_F83088CE.node_role_arn",
        "v0, nodeRoleName, data.aws_eks_node_group.node-role_node-group_F83088CE.node_role_arn",
        "v0, instanceProfileName, aws_iam_instance_profile.node-instance-profile_08F64A06.name",
        "v1, controllerRoleArn, aws_iam_role.controller-role_D5C48E6C.arn",
        "v1, nodeRoleArn, aws_iam_role.node-role_24EF0822.arn",
        "v1, nodeRoleName, aws_iam_role.node-role_24EF0822.name"
    })
    void accessorsBecomeCrossStackReferences(String cluster, String accessor, String exported) {
        String value = stack("consumer")
                .at("/output/" + cluster + "_" + accessor + "/value")
                .asText();
        Matcher remote = REMOTE_OUTPUT.matcher(value);
        assertThat(remote.find()).as(value).isTrue();
        assertThat(remote.group(1)).isEqualTo(cluster + "-iam");
        JsonNode iamOutput = stack(cluster + "-iam").path("output").path(remote.group(2));
        assertThat(iamOutput.path("value").asText()).isEqualTo("${" + exported + "}");
    }

    @Test
    void instanceProfileNameIsEmptyWhereNoneIsMade() {
        assertThat(stack("consumer").at("/output/v1_instanceProfileName/value").asText())
                .isEmpty();
    }

    private static JsonNode stack(String name) {
        return Json.read(DIR.resolve("stacks").resolve(name).resolve("cdk.tf.json"));
    }
}
