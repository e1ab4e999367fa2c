package dev.platform.karpenter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Synthesis goes to a staging directory next to the output directory and is moved into place only when complete,
 * so a failed synth never leaves half-written stacks. Terraform's working files in the stack directories (.terraform,
 * the lock file) are kept, so a re-synth does not force a new init.
 */
public final class OutputDirectory {
    private static final Set<String> TERRAFORM_WORKING_FILES = Set.of(".terraform", ".terraform.lock.hcl");

    private OutputDirectory() {
    }

    public static Path stagingFor(Path outdir) throws IOException {
        Path parent = outdir.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        return Files.createTempDirectory(parent, "." + outdir.getFileName() + ".staging-");
    }

    /** Replaces what a previous synth wrote in {@code outdir} with the staged result, then removes the staging dir. */
    public static void publish(Path staged, Path outdir) throws IOException {
        Files.createDirectories(outdir);
        clearPreviousSynth(outdir);
        try (Stream<Path> paths = Files.walk(staged)) {
            for (Path source : paths.sorted().toList()) {
                Path target = outdir.resolve(staged.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        deleteRecursively(staged);
    }

    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void clearPreviousSynth(Path outdir) throws IOException {
        Files.deleteIfExists(outdir.resolve("manifest.json"));
        Path stacks = outdir.resolve("stacks");
        if (!Files.isDirectory(stacks)) {
            return;
        }
        try (Stream<Path> stackDirs = Files.list(stacks)) {
            for (Path stackDir : stackDirs.toList()) {
                try (Stream<Path> entries = Files.list(stackDir)) {
                    for (Path entry : entries.toList()) {
                        if (!TERRAFORM_WORKING_FILES.contains(entry.getFileName().toString())) {
                            deleteRecursively(entry);
                        }
                    }
                }
            }
        }
    }
}
