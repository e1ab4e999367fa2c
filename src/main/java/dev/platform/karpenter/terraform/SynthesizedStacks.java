package dev.platform.karpenter.terraform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stacks of a synthesized output, read from its {@code manifest.json} alone: grouped by cluster, each cluster's
 * stacks in the order their dependencies give (IAM and interruption, then the controller, then the node pools).
 *
 * <p>A stack is named {@code <cluster>-<concern>} and concerns hold no '-', so the cluster is the name up to its last
 * '-'. Clusters keep the manifest's order; within a cluster, a stack comes after everything it depends on, and
 * stacks that do not depend on each other keep the manifest's order.
 */
public final class SynthesizedStacks {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One stack: its Terraform working directory and the stacks whose outputs it reads. */
    public record Stack(String name, String cluster, Path directory, List<String> dependencies) {}

    /** The stacks of one cluster, in dependency order. */
    public record Cluster(String name, List<Stack> stacks) {}

    private final Path outdir;
    private final List<Cluster> clusters;

    private SynthesizedStacks(Path outdir, List<Cluster> clusters) {
        this.outdir = outdir;
        this.clusters = clusters;
    }

    /**
     * Reads {@code outdir/manifest.json}. The output directory's symbolic link (cdktf.out) is resolved once here; a
     * synthesis cannot publish a new output (and remove this one) while a run holds it ({@link OutputInUse}).
     *
     * @throws StacksException naming the file when it is missing or not a cdktf manifest
     */
    public static SynthesizedStacks read(Path outdir) {
        Path manifest = outdir.resolve("manifest.json");
        Path real;
        JsonNode stacks;
        try {
            real = outdir.toRealPath();
            stacks = JSON.readTree(real.resolve("manifest.json").toFile()).path("stacks");
        } catch (NoSuchFileException e) {
            throw new StacksException(manifest + " does not exist: synthesize first (bin/cdktf synth or libexec/app)");
        } catch (IOException e) {
            throw new StacksException(manifest + " is not a readable cdktf manifest: " + e.getMessage());
        }
        if (!stacks.isObject() || stacks.isEmpty()) {
            throw new StacksException(manifest + " lists no stacks");
        }
        Map<String, Stack> byName = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = stacks.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            byName.put(entry.getKey(), stack(real, manifest, entry.getKey(), entry.getValue()));
        }
        Map<String, List<Stack>> byCluster = new LinkedHashMap<>();
        for (Stack stack : byName.values()) {
            for (String dependency : stack.dependencies()) {
                Stack producer = byName.get(dependency);
                if (producer == null || !producer.cluster().equals(stack.cluster())) {
                    throw new StacksException(manifest + ": stack " + stack.name() + " depends on " + dependency
                            + ", which is not a stack of cluster " + stack.cluster());
                }
            }
            byCluster.computeIfAbsent(stack.cluster(), c -> new ArrayList<>()).add(stack);
        }
        List<Cluster> clusters = new ArrayList<>();
        byCluster.forEach((name, members) -> clusters.add(new Cluster(name, dependencyOrder(manifest, members))));
        return new SynthesizedStacks(real, List.copyOf(clusters));
    }

    private static Stack stack(Path real, Path manifest, String name, JsonNode entry) {
        int dash = name.lastIndexOf('-');
        if (dash <= 0) {
            throw new StacksException(manifest + ": stack " + name + " is not named <cluster>-<concern>");
        }
        String workingDirectory = entry.path("workingDirectory").asText("stacks/" + name);
        Path directory = real.resolve(workingDirectory).normalize();
        if (!directory.startsWith(real)) {
            throw new StacksException(manifest + ": stack " + name + " has a working directory outside the output");
        }
        List<String> dependencies = new ArrayList<>();
        entry.path("dependencies").forEach(d -> dependencies.add(d.asText()));
        return new Stack(name, name.substring(0, dash), directory, List.copyOf(dependencies));
    }

    /** Every stack after its dependencies; otherwise the manifest's order. */
    private static List<Stack> dependencyOrder(Path manifest, List<Stack> members) {
        List<Stack> ordered = new ArrayList<>();
        Set<String> placed = new LinkedHashSet<>();
        while (ordered.size() < members.size()) {
            Stack next = members.stream()
                    .filter(s -> !placed.contains(s.name()) && placed.containsAll(s.dependencies()))
                    .findFirst()
                    .orElseThrow(() -> new StacksException(manifest + ": the stacks of cluster "
                            + members.get(0).cluster() + " depend on each other in a cycle"));
            ordered.add(next);
            placed.add(next.name());
        }
        return List.copyOf(ordered);
    }

    /** The resolved output directory. */
    public Path outdir() {
        return outdir;
    }

    public List<Cluster> clusters() {
        return clusters;
    }

    /** The cluster names, in the manifest's order. */
    public List<String> clusterNames() {
        return clusters.stream().map(Cluster::name).toList();
    }

    /** The concern of a stack: the part of its name after the cluster's. */
    /**
     * Whether the stack's state is known, without Terraform, to hold no resource: its backend is local and the state
     * file is missing or lists none. False for any other backend, or a state that cannot be read.
     */
    static boolean hasNoLocalState(Stack stack) {
        try {
            JsonNode local = JSON.readTree(
                            stack.directory().resolve("cdk.tf.json").toFile())
                    .path("terraform")
                    .path("backend")
                    .path("local");
            if (!local.path("path").isTextual()) {
                return false;
            }
            Path state = stack.directory().resolve(local.path("path").asText());
            return !Files.exists(state)
                    || JSON.readTree(state.toFile()).path("resources").isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    public static String concern(Stack stack) {
        return stack.name().substring(stack.cluster().length() + 1);
    }

    /**
     * Only the named clusters (all when {@code names} is empty), in the manifest's order.
     *
     * @throws StacksException naming a cluster the output does not have, and the ones it has
     */
    public List<Cluster> select(Set<String> names) {
        for (String name : names) {
            if (!clusterNames().contains(name)) {
                throw new StacksException("no cluster " + name + " in " + outdir.resolve("manifest.json") + " (it has: "
                        + String.join(", ", clusterNames()) + ")");
            }
        }
        return clusters.stream()
                .filter(c -> names.isEmpty() || names.contains(c.name()))
                .toList();
    }

    /** Whether {@code directory} holds a synthesized stack. */
    static boolean isStackDirectory(Path directory) {
        return Files.isRegularFile(directory.resolve("cdk.tf.json"));
    }
}
