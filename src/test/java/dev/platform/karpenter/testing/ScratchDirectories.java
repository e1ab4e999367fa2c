package dev.platform.karpenter.testing;

import dev.platform.karpenter.synth.OutputDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Temporary directories of this test JVM, all under one root that a shutdown hook deletes. A synthesis held in a
 * static field or made inside one test has no extension to delete it; without the root, every {@code mvn verify}
 * left some 50 synthesized apps (about 2.5 MB each) in the system's temporary directory.
 */
public final class ScratchDirectories {
    private static final Path ROOT = createRoot();

    private ScratchDirectories() {}

    /** A new, empty directory named {@code prefix...}, deleted at the latest when the JVM exits. */
    public static Path create(String prefix) {
        try {
            return Files.createTempDirectory(ROOT, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything in it; a directory already gone is fine. */
    public static void delete(Path dir) {
        OutputDirectory.deleteRecursively(dir);
    }

    private static Path createRoot() {
        try {
            Path root = Files.createTempDirectory("karpenter-tests-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root)));
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
