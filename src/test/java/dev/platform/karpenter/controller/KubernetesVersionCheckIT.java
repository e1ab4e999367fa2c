package dev.platform.karpenter.controller;

import static dev.platform.karpenter.controller.ControllerFixtures.STACK;
import static dev.platform.karpenter.controller.ControllerFixtures.release;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.testing.IntegrationEnvironment;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Synthesized;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Terraform itself evaluates the synthesized Kubernetes version precondition. The helm provider cannot run
 * here, so the precondition is lifted onto a built-in terraform_data resource, with the cluster's version (the
 * only reference it holds) turned into a variable: a plan then passes or fails exactly as the release's would.
 */
@IntegrationTest
class KubernetesVersionCheckIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final Synthesized V0 = ControllerFixtures.v0();
    private static Path dir;

    @BeforeAll
    static void writeConfigurationWithTheSynthesizedPrecondition() throws IOException, InterruptedException {
        IntegrationEnvironment.requireTools();
        JsonNode clusters = V0.stack(STACK).path("data").path("aws_eks_cluster");
        String versionReference = "data.aws_eks_cluster." + clusters.fieldNames().next() + ".version";
        String precondition = release(V0, "karpenter_crd").path("lifecycle").path("precondition").toString()
                .replace(versionReference, "var.cluster_version");
        assertThat(precondition).doesNotContain("data.");

        ObjectNode config = JSON.createObjectNode();
        config.with("variable").with("cluster_version").put("type", "string");
        config.with("resource").with("terraform_data").with("karpenter_crd").with("lifecycle")
                .set("precondition", JSON.readTree(precondition));
        dir = Files.createTempDirectory(IntegrationEnvironment.buildDir(), "version-check-");
        JSON.writeValue(dir.resolve("main.tf.json").toFile(), config);
        assertThat(terraform("init", "-input=false", "-no-color").exitCode()).isZero();
    }

    @ParameterizedTest(name = "Kubernetes {0} with v0.30.0: plan passes = {1}")
    @CsvSource({"1.22, false", "1.23, true", "1.27, true", "1.28, false", "1.36, false"})
    void planPassesOnlyForTheChartsKubernetesRange(String clusterVersion, boolean passes)
            throws IOException, InterruptedException {
        Result plan = terraform("plan", "-input=false", "-no-color", "-var", "cluster_version=" + clusterVersion);

        assertThat(plan.exitCode() == 0).as(plan.output()).isEqualTo(passes);
        if (!passes) {
            assertThat(plan.output().replaceAll("[│\\s]+", " ")).contains("Karpenter v0.30.0 supports Kubernetes 1.23 to 1.27 "
                    + "but EKS cluster demo runs " + clusterVersion + ": set karpenter_chart_version to a release that supports it "
                    + "(v0.31.x for Kubernetes 1.23 to 1.28, 1.14.x for Kubernetes 1.26 to 1.36)");
        }
    }

    private record Result(int exitCode, String output) {
    }

    private static Result terraform(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("terraform"));
        command.addAll(List.of(args));
        Path log = dir.resolve("terraform.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("terraform " + String.join(" ", args) + " timed out");
        }
        return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }
}
