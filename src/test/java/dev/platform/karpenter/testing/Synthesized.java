package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.KarpenterApp;
import dev.platform.karpenter.config.ClusterConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The app synthesized once into a temporary directory, with the stacks' Terraform JSON parsed. Synthesis is the
 * slow part of a test, so a test class synthesizes once (in a static field or @BeforeAll) and asserts many times.
 */
public final class Synthesized {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;

    private Synthesized(Path dir) {
        this.dir = dir;
    }

    public static Synthesized of(ClusterConfig... clusters) {
        try {
            Path dir = Files.createTempDirectory("karpenter-synth-");
            KarpenterApp.synthesize(List.of(clusters), dir, "../../..");
            return new Synthesized(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
        return read(stackDir(stackName).resolve("cdk.tf.json"));
    }

    public JsonNode manifest() {
        return read(dir.resolve("manifest.json"));
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
        JsonNode all = resources(stack, type);
        if (all.size() != 1) {
            throw new AssertionError("expected one " + type + ", found " + all.size() + ": " + all);
        }
        return all.elements().next();
    }

    public static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
