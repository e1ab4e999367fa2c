package dev.platform.karpenter.controller;

import static dev.platform.karpenter.testing.Json.fieldNames;
import static dev.platform.karpenter.testing.Json.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** chart_repository in the synthesized controller stack: which token each kind of registry is logged in to with. */
@KernelOnlyThroughSynthesized
class ChartRegistryStackTest {
    private static final String SAME_REGION = "oci://123456789012.dkr.ecr.us-west-2.amazonaws.com/ecr-public/karpenter";
    private static final String OTHER_REGION = "oci://210987654321.dkr.ecr.eu-west-1.amazonaws.com/mirror/karpenter";
    private static final String OTHER_REGISTRY = "oci://registry.example.com:5000/mirror/karpenter";
    private static final String TOKEN = "data.aws_ecr_authorization_token.chart_registry";

    @RegisterExtension
    static final Synthesized SYNTHESIZED = Synthesized.app()
            .cluster("ecr", TestConfigs.V1, "chart_repository = \"" + SAME_REGION + "\"")
            .cluster("ecr-v0", TestConfigs.V0, "chart_repository = \"" + SAME_REGION + "\"")
            .cluster("far", TestConfigs.V1, "chart_repository = \"" + OTHER_REGION + "\"")
            .cluster("other", TestConfigs.V1, "chart_repository = \"" + OTHER_REGISTRY + "\"")
            .cluster(TestConfigs.configFor("china", "cn-north-1", TestConfigs.V1))
            .synthesize();

    private static JsonNode stack(String cluster) {
        return SYNTHESIZED.stack(cluster + "-" + ControllerStack.CONCERN);
    }

    private static JsonNode release(String cluster, String address) {
        return stack(cluster).path("resource").path("helm_release").path(address);
    }

    @Test
    void aPrivateEcrRegistryIsLoggedInToWithItsOwnTokenAndEcrPublicIsNotAsked() {
        for (String cluster : List.of("ecr", "ecr-v0")) {
            JsonNode stack = stack(cluster);
            assertThat(stack.path("data").has("aws_ecrpublic_authorization_token"))
                    .isFalse();
            JsonNode providers = stack.path("provider").path("aws");
            assertThat(providers).hasSize(1);
            assertThat(providers.get(0).path("region").asText()).isEqualTo("us-west-2");
            JsonNode token = stack.path("data").path("aws_ecr_authorization_token");
            assertThat(fieldNames(token)).containsExactly("chart_registry");
            assertThat(token.path("chart_registry").path("registry_id").asText())
                    .isEqualTo("123456789012");
            assertThat(token.path("chart_registry").has("provider")).isFalse();

            JsonNode registries = stack.path("provider").path("helm").get(0).path("registry");
            assertThat(registries).hasSize(1);
            assertThat(registries.get(0).path("url").asText())
                    .isEqualTo("oci://123456789012.dkr.ecr.us-west-2.amazonaws.com");
            assertThat(registries.get(0).path("password").asText()).isEqualTo("${" + TOKEN + ".password}");
            for (String address : List.of("karpenter_crd", "karpenter")) {
                JsonNode release = release(cluster, address);
                assertThat(release.path("repository").asText()).isEqualTo(SAME_REGION);
                assertThat(release.path("repository_username").asText()).isEqualTo("${" + TOKEN + ".user_name}");
                assertThat(release.path("repository_password").asText()).isEqualTo("${" + TOKEN + ".password}");
                assertThat(texts(release.path("lifecycle").path("ignore_changes")))
                        .containsExactly("repository_password");
            }
        }
    }

    @Test
    void aRegistryInAnotherRegionIsReadThroughAProviderOfThatRegion() {
        JsonNode stack = stack("far");
        JsonNode providers = stack.path("provider").path("aws");
        assertThat(providers).hasSize(2);
        assertThat(providers.get(1).path("alias").asText()).isEqualTo(EcrToken.PROVIDER_ALIAS);
        assertThat(providers.get(1).path("region").asText()).isEqualTo("eu-west-1");
        JsonNode token = stack.path("data").path("aws_ecr_authorization_token").path("chart_registry");
        assertThat(token.path("registry_id").asText()).isEqualTo("210987654321");
        assertThat(token.path("provider").asText()).isEqualTo("aws." + EcrToken.PROVIDER_ALIAS);
    }

    /** aws-cn and aws-us-gov credentials cannot get an ECR Public token (us-east-1): the charts are pulled anonymously. */
    @Test
    void ecrPublicOutsideTheAwsPartitionIsPulledWithoutAToken() {
        JsonNode stack = stack("china");
        assertNoTokenAndNoLogin(stack);
        assertThat(stack.path("provider").path("aws").get(0).path("region").asText())
                .isEqualTo("cn-north-1");
        assertThat(release("china", "karpenter").path("repository").asText())
                .isEqualTo(EcrPublicToken.REGISTRY + "/karpenter");
        assertThat(fieldNames(release("china", "karpenter"))).doesNotContain("repository_password");
    }

    @Test
    void anyOtherRegistryGetsNoTokenAndNoLogin() {
        JsonNode stack = stack("other");
        assertNoTokenAndNoLogin(stack);
        for (String address : List.of("karpenter_crd", "karpenter")) {
            JsonNode release = release("other", address);
            assertThat(release.path("repository").asText()).isEqualTo(OTHER_REGISTRY);
            assertThat(fieldNames(release)).doesNotContain("repository_username", "repository_password", "lifecycle");
        }
    }

    /** No pull token is read (so no us-east-1 provider) and the helm provider logs in to no registry. */
    private static void assertNoTokenAndNoLogin(JsonNode stack) {
        assertThat(fieldNames(stack.path("data")))
                .doesNotContain("aws_ecr_authorization_token", "aws_ecrpublic_authorization_token");
        assertThat(stack.path("provider").path("aws")).hasSize(1);
        assertThat(stack.path("provider").path("helm").get(0).has("registry")).isFalse();
    }
}
