package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the terraform CLI on a synthesized stack directory (one holding {@code cdk.tf.json}) against a
 * {@link MotoServer}.
 *
 * <p>Everything moto needs is passed through the environment ({@code AWS_ENDPOINT_URL}, dummy credentials, region), so
 * the synthesized provider blocks stay exactly as in production. Providers come from the filesystem mirror
 * ({@link IntegrationEnvironment#pluginMirror()}), never a network registry. Each command's output goes to
 * target/terraform-logs/; a failing command throws an {@link AssertionError} carrying the tail of that log.
 */
public final class TerraformRunner {
    /** Upper bound per command, so a hang fails the test instead of blocking CI. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(10);

    private static final ObjectMapper JSON = new ObjectMapper();
    // Numbers log files so repeated runs on one stack (or same-named stacks) never overwrite.
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final Path stackDir;
    private final MotoServer moto;
    private final Path logDir;

    public TerraformRunner(Path stackDir, MotoServer moto) {
        if (!Files.isRegularFile(stackDir.resolve("cdk.tf.json"))) {
            throw new IllegalArgumentException("no cdk.tf.json in " + stackDir);
        }
        this.stackDir = stackDir.toAbsolutePath();
        this.moto = moto;
        try {
            this.logDir =
                    Files.createDirectories(IntegrationEnvironment.buildDir().resolve("terraform-logs"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void init() {
        check("init", "-input=false", "-no-color");
    }

    public void validate() {
        check("validate", "-no-color");
    }

    public void apply() {
        check("apply", "-auto-approve", "-input=false", "-no-color");
    }

    /** Runs {@code plan -detailed-exitcode}: 0 means no changes, 2 means changes pending. */
    public int plan() {
        Path log = nextLog("plan");
        int exit = run(log, "plan", "-detailed-exitcode", "-input=false", "-no-color");
        if (exit != 0 && exit != 2) {
            throw failure("plan", exit, log);
        }
        return exit;
    }

    /** Plans into a file and returns {@code terraform show -json} of it: resource_changes with their actions. */
    public JsonNode planJson() {
        check("plan", "-out=tfplan", "-input=false", "-no-color");
        return json("show", "-json", "-no-color", "tfplan");
    }

    /** Runs a plan that must fail and returns its output; an exit status of 0 or 2 fails the test. */
    public String failingPlan() {
        Path log = nextLog("plan");
        int exit = run(log, "plan", "-detailed-exitcode", "-input=false", "-no-color");
        if (exit == 0 || exit == 2) {
            throw new AssertionError(
                    "terraform plan succeeded (exit " + exit + ") in " + stackDir + " but should fail");
        }
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void destroy() {
        check("destroy", "-auto-approve", "-input=false", "-no-color");
    }

    /** {@code terraform output -json}: an object of output name to {value, type, sensitive}. */
    public JsonNode output() {
        return json("output", "-json", "-no-color");
    }

    /** Runs a subcommand that prints one JSON document, e.g. {@code show -json}, and parses it. */
    private JsonNode json(String... args) {
        Path log = nextLog(args[0]);
        Path stdout = logDir.resolve(log.getFileName() + ".json");
        ProcessBuilder builder = command(List.of(args));
        // Separate streams: a warning on stderr must not corrupt the JSON document on stdout.
        builder.redirectOutput(stdout.toFile()).redirectError(log.toFile());
        int exit = Processes.run(builder, COMMAND_TIMEOUT, log);
        if (exit != 0) {
            throw failure(args[0], exit, log);
        }
        return Json.read(stdout);
    }

    /** Runs {@code terraform args...}, failing on a non-zero exit; args[0] is the subcommand. */
    private void check(String... args) {
        Path log = nextLog(args[0]);
        int exit = run(log, args);
        if (exit != 0) {
            throw failure(args[0], exit, log);
        }
    }

    private int run(Path log, String... args) {
        ProcessBuilder builder = command(List.of(args));
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return Processes.run(builder, COMMAND_TIMEOUT, log);
    }

    private ProcessBuilder command(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add("terraform");
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(stackDir.toFile());
        pointAtMoto(builder.environment(), moto);
        return builder;
    }

    /**
     * Sets up a process environment for Terraform (or the cdktf CLI, which runs Terraform) against moto: the
     * provider mirror, a shared plugin cache, moto's endpoint and dummy credentials.
     */
    public static void pointAtMoto(Map<String, String> env, MotoServer moto) {
        // A developer's own AWS_PROFILE or session token must not leak into applies against moto.
        env.keySet().removeIf(name -> name.startsWith("AWS_"));
        env.putAll(moto.awsEnvironment());
        env.put("TF_CLI_CONFIG_FILE", CliConfig.FILE.toString());
        env.put("TF_PLUGIN_CACHE_DIR", CliConfig.PLUGIN_CACHE.toString());
        env.put("TF_IN_AUTOMATION", "1");
    }

    private Path nextLog(String subcommand) {
        return logDir.resolve(
                "%03d-%s-%s.log".formatted(SEQUENCE.incrementAndGet(), stackDir.getFileName(), subcommand));
    }

    private AssertionError failure(String subcommand, int exit, Path log) {
        return new AssertionError(
                "terraform " + subcommand + " failed (exit " + exit + ") in " + stackDir + "\n" + Processes.tail(log));
    }

    /** One CLI configuration and plugin cache per test JVM, made on first use. */
    private static final class CliConfig {
        static final Path FILE;
        // Shared across runs: init links the provider from here instead of copying ~700 MB.
        static final Path PLUGIN_CACHE;

        static {
            try {
                FILE = writeCliConfig();
                PLUGIN_CACHE = Files.createDirectories(
                        IntegrationEnvironment.buildDir().resolve("terraform-plugin-cache"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Path writeCliConfig() throws IOException {
        Path dir = Files.createTempDirectory("terraform-cli");
        Path file = dir.resolve("terraform.rc");
        // No "direct" block: a provider missing from the mirror fails init at once instead of timing out against a
        // registry this machine cannot reach.
        String mirror = IntegrationEnvironment.pluginMirror().toAbsolutePath().toString();
        Files.writeString(
                file, """
                provider_installation {
                  filesystem_mirror {
                    path    = %s
                    include = ["registry.terraform.io/hashicorp/*"]
                  }
                }
                """.formatted(JSON.writeValueAsString(mirror))); // a JSON string literal is a valid HCL one
        file.toFile().deleteOnExit();
        dir.toFile().deleteOnExit();
        return file;
    }
}
