package dev.platform.karpenter.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.KarpenterRelease;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The newest release's number is written by hand in one place, its row of the release table: everything else derives
 * it, so adding a release leaves no text stale. Allowed besides: generated files and generated parts of a file, the
 * changelog, upstream files and their provenance, and tests about that very release.
 */
class ReleaseNumbersTest {
    /** Where the number may stand, by path prefix, and why. */
    private static final Map<String, String> ALLOWED = Map.ofEntries(
            Map.entry("docs/reference/", "generated"),
            Map.entry("terraform.tfvars.example", "generated"),
            Map.entry("CHANGELOG.md", "the changelog names releases"),
            Map.entry("src/main/java/dev/platform/karpenter/release/KarpenterMinor.java", "the release table"),
            Map.entry(
                    "src/main/java/dev/platform/karpenter/release/PolicyGeneration.java", "the policy's upstream tag"),
            Map.entry("src/main/resources/dev/platform/karpenter/release/", "upstream files and their provenance"),
            Map.entry("src/test/resources/", "upstream files and fixtures pinned to releases"),
            Map.entry("src/test/java/dev/platform/karpenter/aws/ClusterGuardsIT.java", "a test of that release"),
            Map.entry(
                    "src/test/java/dev/platform/karpenter/testing/kubernetes/UpstreamCharts.java", "the charts' tags"),
            Map.entry("bindings/package-lock.json", "npm packages' own versions"));

    @Test
    void onlyTheReleaseTableAndGeneratedFilesNameTheNewestRelease() throws IOException, InterruptedException {
        KarpenterRelease newest = KarpenterRelease.newest();
        Pattern number =
                Pattern.compile("(?<![\\d.])" + Pattern.quote(newest.major() + "." + newest.minor()) + "(?![\\d])");
        List<String> files = trackedFiles();
        assertThat(files).as("the tracked files").contains("README.md", "pom.xml");
        List<String> found = new ArrayList<>();
        for (String file : files) {
            Path path = Path.of(file);
            if (ALLOWED.keySet().stream().anyMatch(file::startsWith) || !Files.isRegularFile(path)) {
                continue;
            }
            List<String> lines = Files.readAllLines(path, StandardCharsets.ISO_8859_1);
            boolean generated = false;
            for (int i = 0; i < lines.size(); i++) {
                // A generated part of a hand-written file (the README's preview) may name it too.
                generated = lines.get(i).contains(ReferenceDocs.README_BEGIN)
                        || generated && !lines.get(i).contains(ReferenceDocs.README_END);
                if (!generated && number.matcher(lines.get(i)).find()) {
                    found.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(found)
                .as("say \"the newest release\" or derive it (KarpenterRelease.newest()); generated files and the"
                        + " changelog may name it")
                .isEmpty();
    }

    private static List<String> trackedFiles() throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "ls-files", "--cached", "--others", "--exclude-standard")
                .redirectErrorStream(true)
                .start();
        String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(git.waitFor()).as(out).isZero();
        return out.lines().toList();
    }
}
