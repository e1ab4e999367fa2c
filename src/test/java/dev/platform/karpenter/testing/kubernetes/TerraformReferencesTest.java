package dev.platform.karpenter.testing.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerraformReferencesTest {

    @Test
    void referencesBecomeMarkersAndEscapedTemplateStartsTheLiteralTerraformYields() {
        assertThat(TerraformReferences.markers(
                        "arn: \"${data.terraform_remote_state.iam.outputs.arn}\", text: \"$${HOME} %%{x}\""))
                .isEqualTo("arn: \"<tf:data.terraform_remote_state.iam.outputs.arn>\", text: \"${HOME} %{x}\"");
        assertThat(TerraformReferences.replace(
                        "role: ${aws_iam_role.node.name}", expression -> "KarpenterNodeRole-demo"))
                .isEqualTo("role: KarpenterNodeRole-demo");
    }
}
