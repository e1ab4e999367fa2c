package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TerraformStringsTest {
    @Test
    void doublesEveryTemplateStartAndHidesCdktfTokenMarkers() {
        assertThat(TerraformStrings.literal("a ${x} %{ if y } $${z} plain $ { %"))
                .isEqualTo("a $${x} %%{ if y } $$${z} plain $ { %");
        assertThat(TerraformStrings.literal("arn: ${TfToken[TOKEN.42]} and ${TfToken[TOKEN.x]}"))
                .isEqualTo("arn: ${\"$\"}{TfToken[TOKEN.42]} and ${\"$\"}{TfToken[TOKEN.x]}");
        assertThat(TerraformStrings.literal("list #{TfToken[TOKEN.7]}")).isEqualTo("list #${\"{\"}TfToken[TOKEN.7]}");
        assertThat(TerraformStrings.literal(Map.of("${k}", "%{v}"))).containsExactly(Map.entry("$${k}", "%%{v}"));
    }

    @Test
    void quotesForAStringInsideAnExpression() {
        assertThat(TerraformStrings.quoted("a \"b\" \\ ${c} %{d}\n\t\u0001"))
                .isEqualTo("\"a \\\"b\\\" \\\\ $${c} %%{d}\\n\\t\\u0001\"");
    }
}
