package dev.platform.karpenter.adopt;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.config.TfvarsFile;
import dev.platform.karpenter.testing.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guide "Moving in without an outage" (docs/guides/adopting.md): its example is what bin/adopt prints for the seed guide's old root (the
 * module state Terraform left on moto, plus the seed's helm_release and kubectl_manifest Provisioner and
 * AWSNodeTemplate, added here by hand), and with examples/seed-v0.30.tfvars it is a valid configuration that adopts
 * them. AdoptionIT walks the journey's Terraform steps on moto.
 */
class AdoptingGuideTest {
    private static final Pattern HCL = Pattern.compile("  ```hcl\\n(.*?)  ```", Pattern.DOTALL);

    @TempDir
    Path dir;

    @Test
    void theGuidesExampleIsWhatBinAdoptPrintsForTheSeedsRootAndAValidConfiguration() throws IOException {
        String example = readmeExample();
        ObjectNode state = (ObjectNode) Json.read(Path.of("src/test/resources/adopt/states/v19.21.0-seed.show.json"));
        ArrayNode root = state.withObject("/values/root_module").withArray("resources");
        root.add(resource("helm_release", "karpenter", """
                {"name": "karpenter", "namespace": "karpenter", "chart": "karpenter", "version": "v0.30.0",
                 "repository": "oci://public.ecr.aws/karpenter"}"""));
        root.add(resource("kubectl_manifest", "karpenter_provisioner", """
                {"kind": "Provisioner", "name": "default", "api_version": "karpenter.sh/v1alpha5"}"""));
        root.add(resource("kubectl_manifest", "karpenter_node_template", """
                {"kind": "AWSNodeTemplate", "name": "default", "api_version": "karpenter.k8s.aws/v1alpha1"}"""));
        Files.writeString(dir.resolve("seed.json"), state.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = AdoptCommand.run(
                dir,
                new String[] {"--state", "seed.json"},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(exit).isZero();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(normalized(printed.substring(printed.indexOf('\n') + 1))).isEqualTo(normalized(example));

        String seed = Files.readString(Path.of("examples/seed-v0.30.tfvars"));
        ClusterConfig config = ConfigLoader.fromVariables(TfvarsFile.parse(seed + "\n" + example));
        assertThat(config.adoption().controllerRole()).hasValue("KarpenterIRSA-eks-cluster");
        assertThat(config.adoption().eventRules()).hasSize(4);
        assertThat(config.adoption().helmReleases()).containsExactly("karpenter/karpenter");
        assertThat(config.adoption().nodePoolObjects())
                .containsExactly("Provisioner/default", "AWSNodeTemplate/default");
        assertThat(config.interruption().queueName()).isEqualTo("Karpenter-eks-cluster");
    }

    @Test
    void theJourneysCommandsUseOnlyOptionsTheCommandsTake() throws IOException {
        String section = section();
        for (String line :
                section.lines().filter(l -> l.contains("bin/adopt --")).toList()) {
            String command = line.substring(line.indexOf("bin/adopt")).replaceAll("#.*", "");
            Matcher option = Pattern.compile("--[a-z-]+").matcher(command);
            while (option.find()) {
                assertThat(AdoptCommand.USAGE + " --help").as(line).contains(option.group());
            }
        }
        for (String concern : List.of("iam,interruption", "karpenter", "nodepools")) {
            assertThat(section).contains("--concern " + concern);
        }
    }

    /** Generated suffixes and the queue's endpoint differ between the moto run and the guide's account. */
    private static String normalized(String text) {
        return text.replaceAll("-\\d{26}", "-<generated>").replaceAll("https?://[^/\"]+/", "<sqs>/");
    }

    private static ObjectNode resource(String type, String name, String values) {
        ObjectNode resource = Json.tree(java.util.Map.of()).deepCopy();
        resource.put("address", type + "." + name);
        resource.put("mode", "managed");
        resource.put("type", type);
        resource.put("name", name);
        resource.set("values", Json.parse(values));
        return resource;
    }

    private static String readmeExample() throws IOException {
        Matcher block = HCL.matcher(section());
        assertThat(block.find()).isTrue();
        return block.group(1).replaceAll("(?m)^  ", "");
    }

    private static String section() throws IOException {
        return Files.readString(Path.of("docs/guides/adopting.md"));
    }
}
