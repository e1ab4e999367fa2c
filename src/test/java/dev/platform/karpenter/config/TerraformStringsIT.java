package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Terraform itself evaluates the strings of a synthesized app whose configuration carries template syntax (built
 * from records, past the validation that would refuse it): every such string must come out exactly as written.
 * Terraform's own references in the same strings are replaced by a placeholder, so only templates run.
 */
@IntegrationTest
class TerraformStringsIT {
    /** Would read a file, loop, or reference a resource if Terraform evaluated them. */
    private static final String READ_FILE = "${file(\"/etc/hostname\")}";

    private static final String LOOP = "%{ for x in [1, 2] }y%{ endfor }";
    private static final String ESCAPED_ALREADY = "$${literal} %%{literal}";
    private static final String ALL = READ_FILE + " " + LOOP + " " + ESCAPED_ALREADY;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    @Test
    void userStringsStayLiteralWhenTerraformEvaluatesTheStacks() throws Exception {
        ClusterConfig valid = TestConfigs.config(TestConfigs.V1, "create_iam_role = false");
        ClusterConfig hostile = withHostileStrings(valid);
        Synthesized synth = Synthesized.of(hostile);

        ObjectNode outputs = JSON.createObjectNode();
        JsonNode iam = synth.stack("demo-iam");
        output(
                outputs,
                "tag",
                iam.at("/provider/aws/0/default_tags/0/tags/team").asText());
        output(
                outputs,
                "node_group",
                iam.at("/data/aws_eks_node_group")
                        .elements()
                        .next()
                        .get("node_group_name")
                        .asText());
        output(
                outputs,
                "controller_values",
                synth.stack("demo-karpenter")
                        .at("/resource/helm_release/karpenter/values/0")
                        .asText());
        JsonNode pools = synth.stack("demo-nodepools").at("/resource/helm_release");
        output(outputs, "pool_values", pools.elements().next().at("/values/0").asText());
        Files.writeString(dir.resolve("main.tf.json"), JSON.writeValueAsString(Map.of("output", outputs)));

        terraform("init", "-input=false");
        terraform("apply", "-auto-approve", "-input=false");
        JsonNode evaluated = JSON.readTree(terraform("output", "-json"));

        assertThat(evaluated.at("/tag/value").asText()).isEqualTo(ALL);
        assertThat(evaluated.at("/node_group/value").asText()).isEqualTo(ALL);
        JsonNode controllerValues =
                YAML.readTree(evaluated.at("/controller_values/value").asText());
        assertThat(controllerValues.at("/affinity/nodeAffinity/hostile"))
                .containsExactly(
                        JSON.valueToTree(READ_FILE), JSON.valueToTree(LOOP), JSON.valueToTree(ESCAPED_ALREADY));
        assertThat(controllerValues.path("podAnnotations").path(READ_FILE).asText())
                .isEqualTo(LOOP);
        JsonNode poolValues = YAML.readTree(evaluated.at("/pool_values/value").asText());
        assertThat(poolValues
                        .at("/manifests/0/spec/template/metadata/labels/loop")
                        .asText())
                .isEqualTo(LOOP);
        assertThat(poolValues
                        .at("/manifests/0/spec/template/metadata/labels/escaped")
                        .asText())
                .isEqualTo(ESCAPED_ALREADY);
    }

    private static ClusterConfig withHostileStrings(ClusterConfig c) {
        IamSettings iam = new IamSettings(
                c.iam().controllerIdentity(), false, ALL, c.iam().nodeRoleArn(), false, true);
        ControllerSettings controller = new ControllerSettings(
                c.controller().stsRegionalEndpoints(),
                c.controller().replicas(),
                c.controller().resources(),
                c.controller().tolerations(),
                Map.of("nodeAffinity", Map.of("hostile", List.of(READ_FILE, LOOP, ESCAPED_ALREADY))),
                Map.of("podAnnotations", Map.of(READ_FILE, LOOP)),
                c.controller().chartRepository());
        PoolSettings p = c.poolsAndClasses().pools().get(0);
        PoolSettings pool = new PoolSettings(
                p.name(),
                p.capacityTypes(),
                p.architectures(),
                p.instanceCategories(),
                p.instanceGenerationMin(),
                p.cpuLimit(),
                p.memoryLimit(),
                p.consolidation(),
                p.consolidateAfter(),
                p.expireAfter(),
                p.ttlSecondsAfterEmpty(),
                Map.of("loop", LOOP, "escaped", ESCAPED_ALREADY),
                p.taints(),
                p.requirements(),
                p.nodeClass(),
                p.spec(),
                p.declaredIn(),
                p.written(),
                new ObjectMetadata(Map.of("loop", "x"), Map.of("hostile", LOOP, "escaped", ESCAPED_ALREADY)));
        NodeClassSettings n = c.poolsAndClasses().nodeClass(NodeClassSettings.DEFAULT_NODE_CLASS);
        NodeClassSettings nodeClass = new NodeClassSettings(
                n.name(),
                n.amiFamily(),
                n.amiVersion(),
                n.discoveryTagKey(),
                n.discoveryTagValue(),
                Map.of("team", ALL),
                n.spec(),
                n.declaredIn(),
                n.written(),
                new ObjectMetadata(Map.of(), Map.of("team", ALL)));
        PoolsAndNodeClasses nodePools = new PoolsAndNodeClasses(
                List.of(pool), List.of(nodeClass), c.poolsAndClasses().uninstallHookImage());
        return new ClusterConfig(
                c.clusterName(),
                c.region(),
                c.release(),
                c.namespace(),
                c.serviceAccount(),
                Map.of("team", ALL),
                iam,
                c.interruption(),
                controller,
                nodePools,
                c.backend(),
                c.apis(),
                c.upgradeOverride(),
                c.besideAutoMode());
    }

    /**
     * The string as an output, each unescaped interpolation (the app's references to data sources and other stacks)
     * replaced by "REF". A user's string that escaped nothing would be replaced too, and then missed by the asserts.
     */
    private static void output(ObjectNode outputs, String name, String synthesized) {
        String withoutReferences = synthesized.replaceAll("(?<!\\$)\\$\\{[^}]*}", "REF");
        outputs.putObject(name).put("value", withoutReferences);
    }

    private String terraform(String... args) throws IOException, InterruptedException {
        Assumptions.assumeTrue(onPath(), "terraform is not on PATH");
        List<String> command = new java.util.ArrayList<>(List.of("terraform"));
        command.addAll(List.of(args));
        Path errors = Files.createTempFile("terraform", ".err");
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectError(errors.toFile())
                .start();
        String out = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(out + Files.readString(errors)).isZero();
        return out;
    }

    private static boolean onPath() {
        return List.of(System.getenv().getOrDefault("PATH", "").split(":")).stream()
                .anyMatch(p -> Files.isExecutable(Path.of(p, "terraform")));
    }
}
