package dev.platform.karpenter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
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

    /**
     * Replaces what a previous synth wrote in {@code outdir} with the staged result, then removes the staging dir.
     * Whole stack directories are moved (one rename each, whatever they hold), after the Terraform working files of
     * the previous synth have been carried over into them.
     */
    public static void publish(Path staged, Path outdir) throws IOException {
        Path stagedStacks = staged.resolve("stacks");
        Path stacks = Files.createDirectories(outdir.resolve("stacks"));
        Set<String> published = Files.isDirectory(stagedStacks) ? names(stagedStacks) : Set.of();
        for (String previous : names(stacks)) {
            Path previousDir = stacks.resolve(previous);
            if (published.contains(previous)) {
                for (String kept : TERRAFORM_WORKING_FILES) {
                    if (Files.exists(previousDir.resolve(kept), LinkOption.NOFOLLOW_LINKS)) {
                        Files.move(previousDir.resolve(kept), stagedStacks.resolve(previous).resolve(kept),
                                StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                deleteRecursively(previousDir);
            } else {
                clearExceptTerraformWorkingFiles(previousDir);
            }
        }
        for (String stack : published) {
            Files.move(stagedStacks.resolve(stack), stacks.resolve(stack));
        }
        for (String entry : names(staged)) {
            if (!entry.equals("stacks")) {
                Path target = outdir.resolve(entry);
                deleteRecursively(target);
                Files.move(staged.resolve(entry), target);
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

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(entry -> entry.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static void clearExceptTerraformWorkingFiles(Path stackDir) throws IOException {
        if (!Files.isDirectory(stackDir)) {
            deleteRecursively(stackDir);
            return;
        }
        for (String entry : names(stackDir)) {
            if (!TERRAFORM_WORKING_FILES.contains(entry)) {
                deleteRecursively(stackDir.resolve(entry));
            }
        }
    }
}
