package dev.platform.karpenter.terraform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The saved plans of {@code bin/stacks plan --out DIR}, one folder per cluster ({@code DIR/<cluster>/}): each stack's
 * plan file ({@code terraform plan -out}), its provider lock file, and {@value #MANIFEST}, which lists the stacks in
 * the order they apply with each one's outcome, its plan file's SHA-256, the SHA-256 of the configuration it was
 * planned from (the stack's cdk.tf.json) and, for a stack that reads other stacks' outputs, a digest of each output
 * value its plan read. {@value #SUMS} holds the same file digests for {@code sha256sum -c}.
 *
 * <p>A plan set is what a reviewer approves: {@code bin/stacks apply --plans DIR} applies these files and no others,
 * having checked every digest first.
 */
final class SavedPlans {
    static final String MANIFEST = "plans.json";
    static final String SUMS = "SHA256SUMS";
    static final int FORMAT = 1;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One stack of a plan set. {@code file} and {@code sha256} are present when its plan succeeded (changes or none);
     * {@code reads} maps "remote state.output" to the SHA-256 of the value the plan read.
     */
    record Entry(
            String stack,
            Outcome outcome,
            String detail,
            Optional<String> file,
            Optional<String> sha256,
            String configurationSha256,
            Map<String, String> reads) {}

    /** The plan set of one cluster, as read from {@code dir}. */
    record ClusterPlans(String cluster, Path dir, List<Entry> stacks) {
        Optional<Entry> entry(String stack) {
            return stacks.stream().filter(e -> e.stack().equals(stack)).findFirst();
        }

        Path file(Entry entry) {
            return dir.resolve(entry.file().orElseThrow());
        }
    }

    private SavedPlans() {}

    /** The folder of one cluster's plans in the plan set {@code root}. */
    static Path clusterDir(Path root, String cluster) {
        return root.resolve(cluster);
    }

    /** Whether {@code root} holds plans of {@code cluster}. */
    static boolean has(Path root, String cluster) {
        return Files.isRegularFile(clusterDir(root, cluster).resolve(MANIFEST));
    }

    /** Empties the cluster's folder (an earlier plan set's files must not pass for this one's) and creates it. */
    static Path prepare(Path root, String cluster) {
        Path dir = clusterDir(root, cluster);
        try {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path file : files.toList()) {
                        if (Files.isRegularFile(file)) {
                            Files.delete(file);
                        }
                    }
                }
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the cluster's manifest and checksum file. */
    static void write(Path root, String cluster, List<Entry> entries) {
        ObjectNode manifest = JSON.createObjectNode();
        manifest.put("format", FORMAT);
        manifest.put("cluster", cluster);
        var stacks = manifest.putArray("stacks");
        StringBuilder sums = new StringBuilder();
        for (Entry entry : entries) {
            ObjectNode node = stacks.addObject();
            node.put("stack", entry.stack());
            node.put("outcome", entry.outcome().name());
            node.put("detail", entry.detail());
            entry.file().ifPresent(f -> node.put("file", f));
            entry.sha256().ifPresent(s -> node.put("sha256", s));
            node.put("configuration_sha256", entry.configurationSha256());
            ObjectNode reads = node.putObject("reads");
            entry.reads().forEach(reads::put);
            if (entry.file().isPresent()) {
                sums.append(entry.sha256().orElseThrow())
                        .append("  ")
                        .append(entry.file().get())
                        .append('\n');
            }
        }
        Path dir = clusterDir(root, cluster);
        try {
            Files.writeString(dir.resolve(MANIFEST), JSON.writeValueAsString(manifest) + "\n", StandardCharsets.UTF_8);
            Files.writeString(dir.resolve(SUMS), sums.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the plans of {@code cluster} from {@code root}.
     *
     * @throws StacksException naming the file when it is missing or not a plan set's manifest
     */
    static ClusterPlans read(Path root, String cluster) {
        Path dir = clusterDir(root, cluster);
        Path file = dir.resolve(MANIFEST);
        JsonNode manifest;
        try {
            manifest = JSON.readTree(file.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new StacksException(file + " does not exist: no saved plans of cluster " + cluster
                    + " (bin/stacks plan --out " + root + " --cluster " + cluster + " makes them)");
        } catch (IOException e) {
            throw new StacksException(file + " is not a plan set's manifest: " + e.getMessage());
        }
        if (manifest == null
                || manifest.path("format").asInt() != FORMAT
                || !manifest.path("cluster").asText().equals(cluster)
                || !manifest.path("stacks").isArray()) {
            throw new StacksException(
                    file + " is not a format " + FORMAT + " plan set's manifest of cluster " + cluster);
        }
        List<Entry> entries = new ArrayList<>();
        for (JsonNode node : manifest.path("stacks")) {
            Outcome outcome;
            try {
                outcome = Outcome.valueOf(node.path("outcome").asText());
            } catch (IllegalArgumentException e) {
                throw new StacksException(file + ": stack " + node.path("stack").asText() + " has the unknown outcome "
                        + node.path("outcome").asText());
            }
            Optional<String> planFile = text(node, "file");
            if (planFile.isPresent()
                    && (planFile.get().contains("/") || planFile.get().startsWith("."))) {
                throw new StacksException(file + ": plan file " + planFile.get() + " is not a file of " + dir);
            }
            Map<String, String> reads = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.path("reads").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> read = it.next();
                reads.put(read.getKey(), read.getValue().asText());
            }
            entries.add(new Entry(
                    node.path("stack").asText(),
                    outcome,
                    node.path("detail").asText(),
                    planFile,
                    text(node, "sha256"),
                    node.path("configuration_sha256").asText(),
                    Map.copyOf(reads)));
        }
        return new ClusterPlans(cluster, dir, List.copyOf(entries));
    }

    private static Optional<String> text(JsonNode node, String field) {
        return node.path(field).isTextual() ? Optional.of(node.path(field).asText()) : Optional.empty();
    }

    /** The SHA-256 of a file, in lower-case hex (as sha256sum prints it). */
    static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = digest();
            byte[] buffer = new byte[64 * 1024];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The SHA-256 of a text's UTF-8 bytes. */
    static String sha256(String text) {
        return HexFormat.of().formatHex(digest().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
