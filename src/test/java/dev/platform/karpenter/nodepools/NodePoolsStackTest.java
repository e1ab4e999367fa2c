package dev.platform.karpenter.nodepools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.controller.ControllerStack;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import imports.aws.iam_role.IamRole;
import imports.aws.iam_role.IamRoleConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The synthesized nodepools stack: the Helm release of the manifest chart, the output and the plain file. */
class NodePoolsStackTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Synthesized V0 = Synthesized.of(TestConfigs.config(TestConfigs.V0));
    /** 1.x with an IAM stack whose node role is a resource, so the role crosses stacks as a Terraform reference. */
    private static final Path V1 = synthesizeWithNodeRoleResource(TestConfigs.config(TestConfigs.V1));

    @Test
    void installsTheManifestChartAsAHelmReleaseThatWaitsOnUninstall() {
        JsonNode release = Synthesized.onlyResource(V0.stack("demo-nodepools"), "helm_release");

        assertThat(release.path("name").asText()).isEqualTo("karpenter-nodepools");
        assertThat(release.path("namespace").asText()).isEqualTo("karpenter");
        assertThat(release.path("wait").asBoolean()).isTrue();
        assertThat(release.path("timeout").asInt()).isEqualTo(900);
        assertThat(release.path("provider").asText()).isEqualTo("helm");
        assertThat(V0.stack("demo-nodepools").path("provider").path("helm").get(0).path("kubernetes").path("exec")
                .path("command").asText()).isEqualTo("aws");
    }

    @Test
    void theChartIsAnAssetInsideTheStackReferencedByARelativePath() throws IOException {
        Path stackDir = V0.stackDir("demo-nodepools");
        String chartPath = Synthesized.onlyResource(V0.stack("demo-nodepools"), "helm_release").path("chart").asText();

        assertThat(chartPath).startsWith("assets/").doesNotStartWith("/");
        JsonNode chart = YAML.readTree(stackDir.resolve(chartPath).resolve("Chart.yaml").toFile());
        assertThat(chart.path("apiVersion").asText()).isEqualTo("v2");
        assertThat(chart.path("name").asText()).isEqualTo("karpenter-nodepools");
        assertThat(chart.path("type").asText()).isEqualTo("application");
        assertThat(Files.readString(stackDir.resolve(chartPath).resolve("templates/manifests.yaml")))
                .isEqualTo(ManifestChart.TEMPLATE);
    }

    @Test
    void theReleaseValuesCarryTheV1Alpha5ManifestsThenTheUninstallHook() {
        List<JsonNode> manifests = valuesManifests(Synthesized.onlyResource(V0.stack("demo-nodepools"), "helm_release"));

        assertThat(manifests).extracting(m -> m.path("kind").asText()).containsExactly("Provisioner", "AWSNodeTemplate",
                "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Job");
        assertThat(manifests.get(0).path("spec").path("providerRef").path("name").asText()).isEqualTo("default");
        assertThat(manifests.get(1).path("spec").path("subnetSelector").path("karpenter.sh/discovery").asText()).isEqualTo("demo");
        assertThat(manifests.subList(2, 6)).allSatisfy(hook ->
                assertThat(hook.path("metadata").path("annotations").path("helm.sh/hook").asText()).isEqualTo("pre-delete"));
    }

    @Test
    void thePlainFileAndTheOutputHoldWhatHelmAppliesWithoutTheHook() {
        JsonNode stack = V0.stack("demo-nodepools");
        List<JsonNode> applied = valuesManifests(Synthesized.onlyResource(stack, "helm_release")).subList(0, 2);

        assertThat(documents(read(V0.stackDir("demo-nodepools").resolve("manifests/default-provisioner.yaml")))).isEqualTo(applied);
        assertThat(documents(stack.path("output").path("manifests_yaml").path("value").asText())).isEqualTo(applied);
    }

    @Test
    void onV1TheNodeClassRoleIsACrossStackReferenceToTheNodeRole() {
        JsonNode stack = json(V1.resolve("stacks/demo-nodepools/cdk.tf.json"));
        List<JsonNode> manifests = valuesManifests(Synthesized.onlyResource(stack, "helm_release"));

        assertThat(manifests).extracting(m -> m.path("kind").asText()).containsExactly("NodePool", "EC2NodeClass");
        String role = manifests.get(1).path("spec").path("role").asText();
        assertThat(role).matches("\\$\\{data\\.terraform_remote_state\\.([\\w-]+)\\.outputs\\.([\\w-]+)}");
        String remoteState = role.replaceAll("\\$\\{data\\.terraform_remote_state\\.([\\w-]+)\\..*", "$1");
        String output = role.replaceAll(".*\\.outputs\\.([\\w-]+)}", "$1");
        assertThat(stack.path("data").path("terraform_remote_state").path(remoteState).path("config").path("path").asText())
                .endsWith("terraform.demo-iam.tfstate");
        JsonNode iam = json(V1.resolve("stacks/demo-iam/cdk.tf.json"));
        assertThat(iam.path("output").path(output).path("value").asText()).isEqualTo("${aws_iam_role.stub-node-role.name}");
        assertThat(documents(stack.path("output").path("manifests_yaml").path("value").asText())).isEqualTo(manifests);
    }

    @Test
    void onV1ThePlainFileHasAPlaceholderWhereTheRoleIsOnlyKnownAfterApply() {
        JsonNode stack = json(V1.resolve("stacks/demo-nodepools/cdk.tf.json"));
        List<JsonNode> applied = valuesManifests(Synthesized.onlyResource(stack, "helm_release"));
        List<JsonNode> plain = documents(read(V1.resolve("stacks/demo-nodepools/manifests/nodepool.yaml")));

        assertThat(plain.get(1).path("spec").path("role").asText()).isEqualTo("${NODE_ROLE_NAME}");
        ((com.fasterxml.jackson.databind.node.ObjectNode) plain.get(1).path("spec")).put("role", applied.get(1).path("spec").path("role").asText());
        assertThat(plain).isEqualTo(applied);
    }

    @Test
    void isDeployedAfterTheControllerAndTheNodeRole() {
        JsonNode dependencies = json(V1.resolve("manifest.json")).path("stacks").path("demo-nodepools").path("dependencies");
        List<String> names = new ArrayList<>();
        dependencies.forEach(d -> names.add(d.asText()));

        assertThat(names).contains("demo-karpenter", "demo-iam");
    }

    private static List<JsonNode> valuesManifests(JsonNode release) {
        assertThat(release.path("values")).hasSize(1);
        JsonNode values = documents(release.path("values").get(0).asText()).get(0);
        List<JsonNode> manifests = new ArrayList<>();
        values.path("manifests").forEach(manifests::add);
        return manifests;
    }

    private static List<JsonNode> documents(String yaml) {
        try {
            List<JsonNode> documents = new ArrayList<>();
            YAML.readerFor(JsonNode.class).readValues(yaml).forEachRemaining(d -> documents.add((JsonNode) d));
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path synthesizeWithNodeRoleResource(ClusterConfig config) {
        try {
            Path dir = Files.createTempDirectory("karpenter-nodepools-synth-");
            App app = new App(AppConfig.builder().outdir(dir.toString()).build());
            IamStack iam = new IamStack(app, config) {
                private final IamRole role = new IamRole(this, "stub-node-role", IamRoleConfig.builder()
                        .name("KarpenterNodeRole-demo").assumeRolePolicy("{}").build());

                @Override
                public String nodeRoleName() {
                    return role.getName();
                }
            };
            InterruptionStack interruption = new InterruptionStack(app, config);
            ControllerStack controller = new ControllerStack(app, config, iam, interruption);
            NodePoolsStack nodePools = new NodePoolsStack(app, config, iam, controller);
            app.synth();
            nodePools.plainManifestFile().writeInto(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode json(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
