package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.terraform.TerraformCli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the terraform CLI on a synthesized stack directory (one holding {@code cdk.tf.json}) against a
 * {@link MotoServer}.
 *
 * <p>Everything moto needs is passed through the environment ({@code AWS_ENDPOINT_URL}, dummy credentials, region), so
 * the synthesized provider blocks stay exactly as in production. The commands of one stack reattach to one
 * long-lived hashicorp/aws provider process ({@link ReattachedProvider}), configured anew by every command. Providers come from the filesystem mirror
 * ({@link IntegrationEnvironment#pluginMirror()}), never a network registry. Each command's output goes to
 * target/terraform-logs/; a failing command throws an {@link AssertionError} carrying the tail of that log. A runner
 * is for one thread; runners of different stacks may run at once.
 */
public final class TerraformRunner {
    /** Upper bound per command, so a hang fails the test instead of blocking CI. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(10);

    private static final ObjectMapper JSON = Json.mapper();
    private static final String PLAN_FILE = "tfplan";
    // Log files are named by test JVM and a number, so repeated runs on one stack, same-named stacks and test JVMs
    // running at once never overwrite each other's.
    private static final long JVM = ProcessHandle.current().pid();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final Path stackDir;
    private final MotoServer moto;
    private final Path logDir;
    /** The hashicorp/aws version the stack requires, or null when it uses no AWS provider. */
    private final String awsProviderVersion;
    /** Set over moto's environment for Terraform and its provider, e.g. {@link AutoModeStub#environment()}. */
    private final Map<String, String> environment;

    public TerraformRunner(Path stackDir, MotoServer moto) {
        this(stackDir, moto, Map.of());
    }

    public TerraformRunner(Path stackDir, MotoServer moto, Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        if (!Files.isRegularFile(stackDir.resolve("cdk.tf.json"))) {
            throw new IllegalArgumentException("no cdk.tf.json in " + stackDir);
        }
        this.stackDir = stackDir.toAbsolutePath();
        this.moto = moto;
        JsonNode aws = Json.read(stackDir.resolve("cdk.tf.json")).at("/terraform/required_providers/aws");
        this.awsProviderVersion =
                aws.isMissingNode() ? null : aws.path("version").asText();
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

    /** Whether {@code init} has run in the stack's directory (its working files are there). */
    public boolean isInitialized() {
        return Files.isDirectory(stackDir.resolve(".terraform"))
                && Files.isRegularFile(stackDir.resolve(".terraform.lock.hcl"));
    }

    public void validate() {
        check("validate", "-no-color");
    }

    public void apply() {
        check("apply", "-auto-approve", "-input=false", "-no-color");
    }

    /** Runs {@code plan -detailed-exitcode}: 0 means no changes, 2 means changes pending. */
    public int plan() {
        return plannedChanges().exitCode();
    }

    /** Runs {@code plan -detailed-exitcode}, which must succeed (exit 0 or 2); returns its exit code and output. */
    public Outcome plannedChanges() {
        Outcome plan = attempt("plan", "-detailed-exitcode", "-input=false", "-no-color");
        if (plan.exitCode() != 0 && plan.exitCode() != 2) {
            throw failure(plan);
        }
        return plan;
    }

    /**
     * Plans into a file that {@link #applyPlan()} applies, and returns the planned resource changes (read from the
     * plan's machine-readable UI, which costs no second Terraform run as {@code show -json} would).
     */
    public List<PlannedChange> planToApply() {
        Outcome plan = attempt("plan", "-out=" + PLAN_FILE, "-json", "-input=false");
        if (plan.exitCode() != 0) {
            throw failure(plan);
        }
        List<PlannedChange> changes = new ArrayList<>();
        for (String line : plan.output().lines().filter(l -> l.startsWith("{")).toList()) {
            JsonNode message = Json.parse(line);
            if (message.path("type").asText().equals("planned_change")) {
                JsonNode change = message.path("change");
                changes.add(new PlannedChange(
                        change.at("/resource/addr").asText(),
                        change.at("/resource/resource_type").asText(),
                        change.path("action").asText(),
                        change.at("/importing/id").asText("")));
            }
        }
        return changes;
    }

    /**
     * A planned change of one resource instance; the action is create, update, delete, replace, read, remove (forget),
     * ... and {@code importId} the id an import block imports it from, empty when it is not imported.
     */
    public record PlannedChange(String address, String type, String action, String importId) {}

    /**
     * Applies the plan {@link #planToApply()} saved: exactly the changes that were inspected, without planning again
     * (Terraform refuses a saved plan whose state has moved on since).
     */
    public void applyPlan() {
        check("apply", "-input=false", "-no-color", PLAN_FILE);
    }

    /** Runs a plan that must fail and returns its output; an exit status of 0 or 2 fails the test. */
    public String failingPlan() {
        Outcome plan = attempt("plan", "-detailed-exitcode", "-input=false", "-no-color");
        if (plan.exitCode() == 0 || plan.exitCode() == 2) {
            throw new AssertionError(
                    "terraform plan succeeded (exit " + plan.exitCode() + ") in " + stackDir + " but should fail");
        }
        return plan.output();
    }

    public void destroy() {
        check("destroy", "-auto-approve", "-input=false", "-no-color");
    }

    /** {@code terraform output -json}: an object of output name to {value, type, sensitive}. */
    public JsonNode output() {
        return json("output", "-json", "-no-color");
    }

    /** {@code terraform providers schema -json}: the provider schemas this stack's commands see. */
    public JsonNode providersSchema() {
        return json("providers", "schema", "-json");
    }

    /**
     * Runs {@code terraform args...} (args[0] the subcommand) whatever its exit status, for tests that expect a
     * failure; the output is stdout and stderr together, as a user sees them.
     */
    public Outcome attempt(String... args) {
        Path log = nextLog(args[0]);
        ProcessBuilder builder = command(List.of(args));
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        int exit = Processes.run(builder, COMMAND_TIMEOUT, log);
        try {
            return new Outcome(String.join(" ", args), exit, Files.readString(log), log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a terraform command did: its arguments, exit status, combined output and the log holding it. */
    public record Outcome(String command, int exitCode, String output, Path log) {
        /** The output with Terraform's box drawing and line wrapping removed, for matching messages. */
        public String oneLine() {
            return output.replaceAll("[│╷╵]", " ").replaceAll("\\s+", " ");
        }
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
            throw failure(new Outcome(String.join(" ", args), exit, "", log));
        }
        return Json.read(stdout);
    }

    /** Runs {@code terraform args...}, failing on a non-zero exit; args[0] is the subcommand. */
    private void check(String... args) {
        Outcome outcome = attempt(args);
        if (outcome.exitCode() != 0) {
            throw failure(outcome);
        }
    }

    private ProcessBuilder command(List<String> args) {
        List<String> command = new ArrayList<>();
        command.add("terraform");
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(stackDir.toFile());
        pointAtMoto(builder.environment(), moto);
        builder.environment().putAll(environment);
        // Not for init, which starts no provider: it installs the provider from the mirror and writes the lock file
        // as without reattaching (with it, init would leave the reattached provider out of the lock file).
        if (awsProviderVersion != null && !args.get(0).equals("init")) {
            builder.environment()
                    .put(
                            "TF_REATTACH_PROVIDERS",
                            moto.provider(stackDir.getFileName().toString(), awsProviderVersion, environment)
                                    .reattach(typesInUse()));
        }
        return builder;
    }

    /**
     * The resource, data source and ephemeral resource types the stack's configuration declares and its local state
     * holds (a type the configuration no longer names is still needed to plan its removal).
     */
    private TrimmedSchemaProxy.Types typesInUse() {
        JsonNode config = Json.read(stackDir.resolve("cdk.tf.json"));
        Map<String, Set<String>> types = new HashMap<>();
        for (String block : List.of("resource", "data", "ephemeral")) {
            types.put(block, new HashSet<>(Json.fieldNames(config.path(block))));
        }
        for (JsonNode module : config.path("module")) {
            addModuleTypes(stackDir.resolve(module.path("source").asText()), types);
        }
        JsonNode backend = config.at("/terraform/backend");
        Path state = backend.isMissingNode()
                ? stackDir.resolve("terraform.tfstate")
                : backend.has("local")
                        ? stackDir.resolve(backend.at("/local/path").asText("terraform.tfstate"))
                        : null;
        if (state != null && Files.isRegularFile(state)) {
            for (JsonNode resource : Json.read(state).path("resources")) {
                String block = resource.path("mode").asText().equals("data") ? "data" : "resource";
                types.get(block).add(resource.path("type").asText());
            }
        }
        return new TrimmedSchemaProxy.Types(types.get("resource"), types.get("data"), types.get("ephemeral"));
    }

    /** The types a local module's .tf files declare: a root that calls a module declares none of its own. */
    private static void addModuleTypes(Path moduleDir, Map<String, Set<String>> types) {
        if (!Files.isDirectory(moduleDir)) {
            return;
        }
        java.util.regex.Pattern block = java.util.regex.Pattern.compile("(?m)^(resource|data) \"([a-z0-9_]+)\"");
        try (java.util.stream.Stream<Path> files = Files.list(moduleDir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".tf")).toList()) {
                java.util.regex.Matcher m = block.matcher(Files.readString(file));
                while (m.find()) {
                    types.get(m.group(1)).add(m.group(2));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sets up a process environment for Terraform (or the cdktf CLI, which runs Terraform) against moto: the
     * provider mirror, moto's endpoint and dummy credentials. No plugin cache: init links the provider from the
     * unpacked mirror in place (no copy of its ~700 MB), and nothing is shared between test JVMs running at once.
     */
    public static void pointAtMoto(Map<String, String> env, MotoServer moto) {
        // A developer's own AWS_PROFILE or session token must not leak into applies against moto.
        env.keySet().removeIf(name -> name.startsWith("AWS_"));
        env.putAll(moto.awsEnvironment());
        env.put("TF_CLI_CONFIG_FILE", CliConfig.FILE.toString());
        env.remove("TF_PLUGIN_CACHE_DIR");
        // As bin/stacks runs it; CHECKPOINT_DISABLE also quiets the cdktf CLI's telemetry.
        env.putAll(TerraformCli.AUTOMATION);
    }

    private Path nextLog(String subcommand) {
        return logDir.resolve(
                "%d-%03d-%s-%s.log".formatted(JVM, SEQUENCE.incrementAndGet(), stackDir.getFileName(), subcommand));
    }

    private AssertionError failure(Outcome outcome) {
        return new AssertionError("terraform " + outcome.command() + " failed (exit " + outcome.exitCode() + ") in "
                + stackDir + "\n" + Processes.tail(outcome.log()));
    }

    /** One CLI configuration per test JVM, made on first use: bin/stacks' mirror-only configuration. */
    private static final class CliConfig {
        static final Path FILE;

        static {
            try {
                FILE = TerraformCli.mirrorConfig(IntegrationEnvironment.pluginMirror());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
