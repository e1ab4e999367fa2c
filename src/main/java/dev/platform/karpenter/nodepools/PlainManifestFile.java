package dev.platform.karpenter.nodepools;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The manifests as a file for {@code kubectl apply -f}, in {@code manifests/} next to the stack's cdk.tf.json. */
final class PlainManifestFile {
    static final String DIRECTORY = "manifests";

    private PlainManifestFile() {
    }

    static void write(Path stackDir, String fileName, String yaml) {
        try {
            Path dir = Files.createDirectories(stackDir.resolve(DIRECTORY));
            Files.writeString(dir.resolve(fileName), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
