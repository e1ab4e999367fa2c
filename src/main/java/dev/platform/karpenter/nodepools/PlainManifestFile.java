package dev.platform.karpenter.nodepools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The manifests as a file for {@code kubectl apply -f}, in {@code stacks/<stack>/manifests/} next to the stack's
 * cdk.tf.json.
 */
public record PlainManifestFile(String stackName, String fileName, String yaml) {
    static final String DIRECTORY = "manifests";

    /** Writes the file into the synthesized output {@code synthDir}, once cdktf has written the stack there. */
    public void writeInto(Path synthDir) throws IOException {
        Path dir = Files.createDirectories(
                synthDir.resolve("stacks").resolve(stackName).resolve(DIRECTORY));
        Files.writeString(dir.resolve(fileName), yaml);
    }
}
