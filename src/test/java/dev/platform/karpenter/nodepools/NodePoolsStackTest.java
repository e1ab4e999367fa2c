package dev.platform.karpenter.nodepools;

import static dev.platform.karpenter.testing.Json.readYaml;
import static dev.platform.karpenter.testing.Json.text;
import static dev.platform.karpenter.testing.Json.texts;
import static dev.platform.karpenter.testing.Json.yamlDocuments;
import static dev.platform.karpenter.testing.Synthesized.idWhere;
import static dev.platform.karpenter.testing.Synthesized.onlyResource;
import static dev.platform.karpenter.testing.Synthesized.output;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The synthesized nodepools stack: the Helm release of the manifest chart, the output and the plain file. */
@KernelOnlyThroughSynthesized
class NodePoolsStackTest {
    @RegisterExtension
    static final Synthesized V0 =
            Synthesized.app().cluster("demo", TestConfigs.V0).synthesize();
    /** 1.x with a node role made by the IAM stack, so the role crosses stacks as a Terraform reference. */
    @RegisterExtension
    static final Synthesized V1 = Synthesized.app()
            .cluster(
                    "demo",
                    TestConfigs.V1,
                    "create_iam_role = true",
                    // Template syntax in user text, as HCL spells a literal ${ and %{.
                    "node_class_spec = { userData = \"#!/bin/bash\\necho $${HOME}\" }",
                    "node_pool_spec = { template = { metadata = { annotations = { \"example.com/note\" ="
                            + " \"$${jsonencode(1)} %%{ if true }\" } } } }")
            .synthesize();

    @Test
    void installsTheManifestChartAsAHelmReleaseThatWaitsOnUninstall() {
        JsonNode release = onlyResource(V0.stack("demo-nodepools"), "helm_release");

        assertThat(release.path("name").asText()).isEqualTo("karpenter-nodepools");
        assertThat(release.path("namespace").asText()).isEqualTo("karpenter");
        assertThat(release.path("wait").asBoolean()).isTrue();
        assertThat(release.path("timeout").asInt()).isEqualTo(900);
        assertThat(release.path("provider").asText()).isEqualTo("helm");
        assertThat(V0.stack("demo-nodepools")
                        .path("provider")
                        .path("helm")
                        .get(0)
                        .path("kubernetes")
                        .path("exec")
                        .path("command")
                        .asText())
                .isEqualTo("aws");
    }

    @Test
    void theChartIsAnAssetInsideTheStackReferencedByARelativePath() throws IOException {
        Path stackDir = V0.stackDir("demo-nodepools");
        String chartPath = onlyResource(V0.stack("demo-nodepools"), "helm_release")
                .path("chart")
                .asText();

        assertThat(chartPath).startsWith("assets/").doesNotStartWith("/");
        JsonNode chart = readYaml(stackDir.resolve(chartPath).resolve("Chart.yaml"));
        assertThat(chart.path("apiVersion").asText()).isEqualTo("v2");
        assertThat(chart.path("name").asText()).isEqualTo("karpenter-nodepools");
        assertThat(chart.path("type").asText()).isEqualTo("application");
        assertThat(Files.readString(stackDir.resolve(chartPath).resolve("templates/manifests.yaml")))
                .isEqualTo(ManifestChart.TEMPLATE);
    }

    @Test
    void theReleaseValuesCarryTheV1Alpha5ManifestsThenTheUninstallHook() {
        List<JsonNode> manifests = valuesManifests(onlyResource(V0.stack("demo-nodepools"), "helm_release"));

        assertThat(manifests)
                .extracting(m -> m.path("kind").asText())
                .containsExactly(
                        "Provisioner", "AWSNodeTemplate", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Job");
        assertThat(manifests
                        .get(0)
                        .path("spec")
                        .path("providerRef")
                        .path("name")
                        .asText())
                .isEqualTo("default");
        assertThat(manifests
                        .get(1)
                        .path("spec")
                        .path("subnetSelector")
                        .path("karpenter.sh/discovery")
                        .asText())
                .isEqualTo("demo");
        assertThat(manifests.subList(2, 6))
                .allSatisfy(hook -> assertThat(hook.path("metadata")
                                .path("annotations")
                                .path("helm.sh/hook")
                                .asText())
                        .isEqualTo("pre-delete"));
    }

    @Test
    void thePlainFileAndTheOutputHoldWhatHelmAppliesWithoutTheHook() {
        JsonNode stack = V0.stack("demo-nodepools");
        List<JsonNode> applied =
                valuesManifests(onlyResource(stack, "helm_release")).subList(0, 2);

        assertThat(yamlDocuments(text(V0.stackDir("demo-nodepools").resolve("manifests/default-provisioner.yaml"))))
                .isEqualTo(applied);
        assertThat(yamlDocuments(output(stack, "manifests_yaml"))).isEqualTo(applied);
    }

    @Test
    void onV1TheNodeClassRoleIsACrossStackReferenceToTheNodeRole() {
        JsonNode stack = V1.stack("demo-nodepools");
        List<JsonNode> manifests = valuesManifests(onlyResource(stack, "helm_release"));

        assertThat(manifests).extracting(m -> m.path("kind").asText()).containsExactly("NodePool", "EC2NodeClass");
        String role = manifests.get(1).path("spec").path("role").asText();
        assertThat(role).matches("\\$\\{data\\.terraform_remote_state\\.([\\w-]+)\\.outputs\\.([\\w-]+)}");
        String remoteState = role.replaceAll("\\$\\{data\\.terraform_remote_state\\.([\\w-]+)\\..*", "$1");
        String output = role.replaceAll(".*\\.outputs\\.([\\w-]+)}", "$1");
        assertThat(stack.path("data")
                        .path("terraform_remote_state")
                        .path(remoteState)
                        .path("config")
                        .path("path")
                        .asText())
                .endsWith("terraform.demo-iam.tfstate");
        JsonNode iam = V1.stack("demo-iam");
        String nodeRole = idWhere(iam, "aws_iam_role", "name", "KarpenterNodeRole-demo");
        assertThat(output(iam, output)).isEqualTo("${aws_iam_role." + nodeRole + ".name}");
        assertThat(yamlDocuments(output(stack, "manifests_yaml"))).isEqualTo(manifests);
    }

    @Test
    void userTextReachesTheValuesAndTheOutputEscapedForTerraform() {
        JsonNode stack = V1.stack("demo-nodepools");
        String values = onlyResource(stack, "helm_release").at("/values/0").asText();
        String output = output(stack, "manifests_yaml");

        for (String carried : List.of(values, output)) {
            assertThat(carried)
                    .contains("echo $${HOME}", "$${jsonencode(1)} %%{ if true }")
                    .doesNotContainPattern("(?<!\\$)\\$\\{(HOME|jsonencode)")
                    .doesNotContainPattern("(?<!%)%\\{ if");
        }
        // What kubectl reads is the user's text itself.
        assertThat(text(V1.stackDir("demo-nodepools").resolve("manifests/nodepool.yaml")))
                .contains("echo ${HOME}", "\"${jsonencode(1)} %{ if true }\"");
    }

    @Test
    void onV1ThePlainFileHasAPlaceholderWhereTheRoleIsOnlyKnownAfterApply() {
        JsonNode stack = V1.stack("demo-nodepools");
        // The values as Terraform yields them: the user's text unescaped (its escapes are all this test's config has).
        ObjectNode release = onlyResource(stack, "helm_release").deepCopy();
        String values = release.at("/values/0").asText();
        release.putArray("values").add(values.replace("$${", "${").replace("%%{", "%{"));
        List<JsonNode> applied = valuesManifests(release);
        List<JsonNode> plain = yamlDocuments(text(V1.stackDir("demo-nodepools").resolve("manifests/nodepool.yaml")));

        assertThat(plain.get(1).path("spec").path("role").asText()).isEqualTo("${NODE_ROLE_NAME}");
        ((ObjectNode) plain.get(1).path("spec"))
                .put("role", applied.get(1).path("spec").path("role").asText());
        assertThat(plain).isEqualTo(applied);
    }

    @Test
    void isDeployedAfterTheControllerAndTheNodeRole() {
        JsonNode dependencies =
                V1.manifest().path("stacks").path("demo-nodepools").path("dependencies");

        assertThat(texts(dependencies)).contains("demo-karpenter", "demo-iam");
    }

    private static List<JsonNode> valuesManifests(JsonNode release) {
        assertThat(release.path("values")).hasSize(1);
        JsonNode values = yamlDocuments(release.path("values").get(0).asText()).get(0);
        List<JsonNode> manifests = new ArrayList<>();
        values.path("manifests").forEach(manifests::add);
        return manifests;
    }
}
