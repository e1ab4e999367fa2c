package dev.platform.karpenter.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Preconditions and shared locations for integration tests (see {@link IntegrationTest}).
 *
 * <p>Call {@link #requireTools()} from {@code @BeforeAll}. On a developer machine without the tools the tests are
 * skipped; under CI ({@code CI=true}) they fail, so a broken CI image cannot silently turn the integration suite green.
 */
public final class IntegrationEnvironment {
    private static final String DEFAULT_PLUGIN_MIRROR = "/opt/tf-plugins";
    // Checked once per test JVM: importing moto takes python seconds, and every integration test class asks.
    private static List<String> missingTools;

    private IntegrationEnvironment() {}

    /** Fails (under CI) or aborts (elsewhere) the calling test, naming every missing tool. */
    public static void requireTools() {
        List<String> missing = missingTools();
        if (missing.isEmpty()) {
            return;
        }
        String message = "Integration test prerequisites missing: " + String.join("; ", missing);
        if ("true".equals(System.getenv("CI"))) {
            fail(message);
        }
        abort(message);
    }

    private static synchronized List<String> missingTools() {
        if (missingTools != null) {
            return missingTools;
        }
        List<String> missing = new ArrayList<>();
        if (!onPath("terraform")) {
            missing.add("`terraform` is not on PATH");
        }
        if (!onPath("aws")) {
            // The IAM stack runs it once to create the account's EC2 Spot service-linked role.
            missing.add("`aws` (the AWS CLI) is not on PATH");
        }
        Path aws = pluginMirror().resolve("registry.terraform.io/hashicorp/aws");
        if (!Files.isDirectory(aws)) {
            missing.add("Terraform provider mirror has no hashicorp/aws at " + aws
                    + " (set TF_PLUGIN_MIRROR to the mirror directory)");
        }
        if (!pythonImports("moto", "boto3")) {
            missing.add("`python3 -c \"import moto, boto3\"` fails (pip install 'moto[server]')");
        }
        missingTools = List.copyOf(missing);
        return missingTools;
    }

    /** Terraform provider filesystem mirror: env {@code TF_PLUGIN_MIRROR}, else /opt/tf-plugins. */
    public static Path pluginMirror() {
        String mirror = System.getenv("TF_PLUGIN_MIRROR");
        return Path.of(mirror == null || mirror.isBlank() ? DEFAULT_PLUGIN_MIRROR : mirror);
    }

    /** Maven's {@code target/} (tests run with the module as working directory), created if absent. */
    public static Path buildDir() {
        try {
            return Files.createDirectories(Path.of("target").toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean onPath(String executable) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, executable))) {
                return true;
            }
        }
        return false;
    }

    private static boolean pythonImports(String... modules) {
        Path log = null;
        try {
            log = Files.createTempFile("python-check", ".log");
            ProcessBuilder check = new ProcessBuilder("python3", "-c", "import " + String.join(", ", modules))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            return Processes.run(check, Duration.ofSeconds(60), log) == 0;
        } catch (IOException | UncheckedIOException e) {
            // A missing python3 surfaces here, from ProcessBuilder.start.
            return false;
        } finally {
            if (log != null) {
                log.toFile().delete();
            }
        }
    }
}
