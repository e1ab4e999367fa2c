package dev.platform.karpenter.iam;

import static dev.platform.karpenter.testing.Json.texts;
import static dev.platform.karpenter.testing.Synthesized.dataAddress;
import static dev.platform.karpenter.testing.Synthesized.dataSources;
import static dev.platform.karpenter.testing.Synthesized.onlyData;
import static dev.platform.karpenter.testing.Synthesized.resources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A queue encrypted with a customer managed key: the controller may decrypt with exactly that key. */
@KernelOnlyThroughSynthesized
class QueueKeyPermissionTest {
    private static final String KEY_ALIAS = "alias/karpenter-queue";

    @RegisterExtension
    static final Synthesized APP = Synthesized.app()
            .cluster("withkey", TestConfigs.V1, "queue_kms_key_id = \"" + KEY_ALIAS + "\"")
            .cluster("withoutkey", TestConfigs.V1)
            .synthesize();

    private static final JsonNode WITH_KEY = APP.stack("withkey-iam");
    private static final JsonNode WITHOUT_KEY = APP.stack("withoutkey-iam");

    @Test
    void resolvesTheConfiguredKeyToItsArnAndAllowsDecryptOnIt() {
        JsonNode key = onlyData(WITH_KEY, "aws_kms_key");
        assertThat(key.path("key_id").asText()).isEqualTo(KEY_ALIAS);
        String keyArn = "${" + dataAddress(WITH_KEY, "aws_kms_key") + ".arn}";

        JsonNode document = policyDocument(WITH_KEY, "KarpenterController-withkey-QueueEncryption");
        assertThat(document.path("Statement")).hasSize(1);
        JsonNode statement = document.path("Statement").get(0);
        assertThat(statement.path("Sid").asText()).isEqualTo("AllowInterruptionQueueDecryption");
        assertThat(statement.path("Effect").asText()).isEqualTo("Allow");
        assertThat(texts(statement.path("Action"))).containsExactly("kms:Decrypt");
        assertThat(texts(statement.path("Resource"))).containsExactly(keyArn);
    }

    @Test
    void sqsManagedEncryptionNeedsNoKeyPermission() {
        assertThat(dataSources(WITHOUT_KEY, "aws_kms_key").isMissingNode()).isTrue();
        assertThat(policyNames(WITHOUT_KEY)).noneMatch(name -> name.endsWith("QueueEncryption"));
    }

    /** The document of the managed policy named {@code name}, as IAM reads it. */
    private static JsonNode policyDocument(JsonNode stack, String name) {
        for (JsonNode policy : resources(stack, "aws_iam_policy")) {
            if (policy.path("name").asText().equals(name)) {
                return Json.parse(policy.path("policy").asText());
            }
        }
        throw new AssertionError("no managed policy " + name + " in " + policyNames(stack));
    }

    private static List<String> policyNames(JsonNode stack) {
        List<String> names = new ArrayList<>();
        resources(stack, "aws_iam_policy")
                .forEach(policy -> names.add(policy.path("name").asText()));
        return names;
    }
}
