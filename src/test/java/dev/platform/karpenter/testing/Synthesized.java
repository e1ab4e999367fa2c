package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.KarpenterApp;
import dev.platform.karpenter.config.ClusterConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real app, configured through tfvars text, synthesized once into a temporary directory; the stacks' Terraform
 * JSON is parsed on first use. Synthesis is the slow part of a test, so a test class synthesizes once, in a static
 * field registered as an extension, which deletes the directory after the class (any other is deleted when the JVM
 * exits, {@link ScratchDirectories}):
 *
 * <pre>{@code
 * @RegisterExtension
 * static final Synthesized APP = Synthesized.app()
 *         .cluster("irsa", TestConfigs.V0)
 *         .cluster("pod", TestConfigs.V1, "controller_identity = \"pod_identity\"")
 *         .synthesize();
 * }</pre>
 *
 * The static helpers navigate a stack's JSON ({@link #resources}, {@link #onlyId}, {@link #output}...).
 */
public final class Synthesized implements AfterAllCallback {
    private static final Pattern REMOTE_OUTPUT =
            Pattern.compile("\\$\\{data\\.terraform_remote_state\\.([^.]+)\\.outputs\\.([^}]+)}");

    private final Path dir;
    private final Map<Path, JsonNode> parsed = new ConcurrentHashMap<>();

    private Synthesized(Path dir) {
        this.dir = dir;
    }

    /**
     * The app of these clusters when there is an upstream mirror, else nothing synthesized: for a class that is
     * {@link NeedsUpstreamMirror} and so skipped without one.
     */
    public static Synthesized withMirror(java.util.function.Supplier<ClusterConfig[]> clusters) {
        return Mirror.available() ? of(clusters.get()) : new Synthesized(null);
    }

    /** The app of these clusters, synthesized now, with the kernel to this thread alone ({@link KernelLock}). */
    public static Synthesized of(ClusterConfig... clusters) {
        return KernelLock.whileHeld(() -> {
            Path dir = ScratchDirectories.create("synth-");
            try {
                // Local state inside this directory (stacks/<stack>/../..): a test's state never meets another run's.
                KarpenterApp.synthesize(List.of(clusters), dir, "../..");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Synthesized(dir);
        });
    }

    public static Builder app() {
        return new Builder();
    }

    /** Clusters for one app: each given by its tfvars (the required settings plus extra lines). */
    public static final class Builder {
        private final List<ClusterConfig> clusters = new ArrayList<>();

        private Builder() {}

        /** Cluster {@code name} in us-west-2 at {@code chartVersion}, plus {@code extraLines} of tfvars. */
        public Builder cluster(String name, String chartVersion, String... extraLines) {
            return cluster(TestConfigs.configFor(name, "us-west-2", chartVersion, extraLines));
        }

        public Builder cluster(ClusterConfig config) {
            clusters.add(config);
            return this;
        }

        public Synthesized synthesize() {
            return of(clusters.toArray(ClusterConfig[]::new));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        parsed.clear();
        if (dir != null) {
            ScratchDirectories.delete(dir);
        }
    }

    public Path dir() {
        return dir;
    }

    public Path stackDir(String stackName) {
        return dir.resolve("stacks").resolve(stackName);
    }

    /** The parsed cdk.tf.json of one stack. */
    public JsonNode stack(String stackName) {
        return parsed.computeIfAbsent(stackDir(stackName).resolve("cdk.tf.json"), Json::read);
    }

    public JsonNode manifest() {
        return parsed.computeIfAbsent(dir.resolve("manifest.json"), Json::read);
    }

    /**
     * The producer-side expression a consumer's {@code ${data.terraform_remote_state.X.outputs.Y}} reads: the
     * value of output Y in the stack whose state X points at.
     */
    public String produced(JsonNode consumer, String consumerExpression) {
        Matcher m = REMOTE_OUTPUT.matcher(consumerExpression);
        if (!m.matches()) {
            throw new AssertionError("not a cross-stack reference: " + consumerExpression);
        }
        String statePath = consumer.at("/data/terraform_remote_state/" + m.group(1) + "/config/path")
                .asText();
        String producer = Path.of(statePath)
                .getFileName()
                .toString()
                .replaceFirst("^terraform\\.", "")
                .replaceFirst("\\.tfstate$", "");
        return output(stack(producer), m.group(2));
    }

    /** All resources of a type in a stack, keyed by their logical id. */
    public static JsonNode resources(JsonNode stack, String type) {
        return stack.path("resource").path(type);
    }

    public static JsonNode dataSources(JsonNode stack, String type) {
        return stack.path("data").path(type);
    }

    /** The single resource of a type (fails when there is not exactly one). */
    public static JsonNode onlyResource(JsonNode stack, String type) {
        return resources(stack, type).path(onlyId(resources(stack, type)));
    }

    /** The single data source of a type. */
    public static JsonNode onlyData(JsonNode stack, String type) {
        return dataSources(stack, type).path(onlyId(dataSources(stack, type)));
    }

    /** The logical id of the single block of {@code byId} (fails when there is not exactly one). */
    public static String onlyId(JsonNode byId) {
        if (byId.size() != 1) {
            throw new AssertionError("expected exactly one, found " + byId.size() + ": " + byId);
        }
        return byId.fieldNames().next();
    }

    /** "data.TYPE.ID" of the only data source of a type, as Terraform expressions name it. */
    public static String dataAddress(JsonNode stack, String type) {
        return "data." + type + "." + onlyId(dataSources(stack, type));
    }

    /** The logical id of the block of a type that has {@code field = value}. */
    public static String idWhere(JsonNode stack, String type, String field, String value) {
        List<String> ids = Json.fieldNames(resources(stack, type)).stream()
                .filter(id ->
                        resources(stack, type).path(id).path(field).asText().equals(value))
                .toList();
        if (ids.size() != 1) {
            throw new AssertionError("expected one " + type + " with " + field + " = " + value + ", found " + ids);
        }
        return ids.get(0);
    }

    /** The value expression of a stack output (fails when there is no such output). */
    public static String output(JsonNode stack, String name) {
        JsonNode output = stack.path("output").path(name);
        if (output.isMissingNode()) {
            throw new AssertionError("no output " + name + " in " + Json.fieldNames(stack.path("output")));
        }
        return output.path("value").asText();
    }
}
