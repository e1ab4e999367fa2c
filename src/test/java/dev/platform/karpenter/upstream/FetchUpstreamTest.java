package dev.platform.karpenter.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libexec/fetch-upstream on a local git repository shaped like upstream's: it lays out each tag's files as
 * {@code <tag>/<path>}, symlinks resolved into copies, the newest tag's extra files only there, the commits in the
 * tags file, and nothing else; what it builds is a mirror ReleaseVendor reads.
 */
class FetchUpstreamTest {
    private static final String CRD = "pkg/apis/crds/karpenter.sh_nodepools.yaml";
    private static final String CRD_TEMPLATE = "charts/karpenter-crd/templates/karpenter.sh_nodepools.yaml";

    @TempDir
    Path dir;

    private Path repo;

    @BeforeEach
    void upstream() throws Exception {
        repo = Files.createDirectories(dir.resolve("karpenter-provider-aws"));
        git("init", "-q");
        write("LICENSE", "licence stand-in\n");
        write("charts/karpenter/Chart.yaml", "name: karpenter\n");
        write(CRD, "kind: CustomResourceDefinition\n");
        Files.createDirectories(repo.resolve(CRD_TEMPLATE).getParent());
        Files.createSymbolicLink(repo.resolve(CRD_TEMPLATE), Path.of("../../../" + CRD));
        write("website/content/en/docs/reference/metrics.md", "# metrics\n");
        write("main.go", "package main\n");
        commit("v1.98.0");
        write("examples/v1/general-purpose.yaml", "kind: NodePool\n");
        write("hack/docs/compatibilitymatrix_gen/compatibility.yaml", "name: karpenter\n");
        commit("v1.99.0");
    }

    @Test
    void laysOutEachTagAsUpstreamDoesWithCopiesForLinksAndRecordsTheCommits() throws Exception {
        Path mirror = dir.resolve("mirror");

        Result result = run("--repo", repo.toString(), "--into", mirror.toString(), "v1.98.0", "v1.99.0");

        assertThat(result.status()).as(result.output()).isZero();
        assertThat(result.output()).contains("export KARPENTER_UPSTREAM_MIRROR=" + mirror.toRealPath());
        Path template = mirror.resolve("v1.98.0").resolve(CRD_TEMPLATE);
        assertThat(Files.isSymbolicLink(template)).isFalse();
        assertThat(Files.readString(template)).isEqualTo("kind: CustomResourceDefinition\n");
        assertThat(files(mirror.resolve("v1.98.0")))
                .containsExactlyInAnyOrder(
                        "LICENSE",
                        "charts/karpenter/Chart.yaml",
                        CRD_TEMPLATE,
                        CRD,
                        "website/content/en/docs/reference/metrics.md");
        assertThat(files(mirror.resolve("v1.99.0")))
                .contains("examples/v1/general-purpose.yaml", "hack/docs/compatibilitymatrix_gen/compatibility.yaml")
                .doesNotContain("main.go");
        String commit = revParse("v1.99.0");
        assertThat(UpstreamMirror.at(mirror).commits())
                .containsOnlyKeys("v1.98.0", "v1.99.0")
                .hasEntrySatisfying("v1.99.0", recorded -> {
                    assertThat(recorded.sha()).isEqualTo(commit);
                    assertThat(recorded.date()).matches("\\d{4}-\\d{2}-\\d{2}T.*");
                });
        try (Stream<Path> top = Files.list(mirror)) {
            assertThat(top.map(p -> p.getFileName().toString()))
                    .as("no work folder left behind")
                    .containsExactlyInAnyOrder("v1.98.0", "v1.99.0", UpstreamMirror.TAGS_FILE);
        }
    }

    @Test
    void aTagFetchedAgainIsReplacedWholeAndKeepsOneLine() throws Exception {
        Path mirror = dir.resolve("mirror");
        assertThat(run("--repo", repo.toString(), "--into", mirror.toString(), "v1.98.0")
                        .status())
                .isZero();
        Files.writeString(mirror.resolve("v1.98.0").resolve("stale-file"), "left over");

        assertThat(run("--repo", repo.toString(), "--into", mirror.toString(), "v1.98.0")
                        .status())
                .isZero();

        assertThat(mirror.resolve("v1.98.0").resolve("stale-file")).doesNotExist();
        assertThat(Files.readAllLines(mirror.resolve(UpstreamMirror.TAGS_FILE))).hasSize(1);
    }

    @Test
    void aMalformedTagIsRefusedWithOneLineBeforeAnythingIsFetched() throws Exception {
        Result result =
                run("--repo", repo.toString(), "--into", dir.resolve("mirror").toString(), "1.99");

        assertThat(result.status()).isEqualTo(2);
        assertThat(result.output().strip()).isEqualTo("fetch-upstream: not a release tag (vMAJOR.MINOR.PATCH): 1.99");
        assertThat(dir.resolve("mirror")).doesNotExist();
    }

    private record Result(int status, String output) {}

    private Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "libexec/fetch-upstream"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove(UpstreamMirror.VARIABLE);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return new Result(process.exitValue(), output);
    }

    private static List<String> files(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .map(file -> root.relativize(file).toString())
                    .toList();
        }
    }

    private void write(String file, String text) throws IOException {
        Path path = repo.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private void commit(String tag) throws Exception {
        git("add", "-A");
        git("-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", tag);
        git("tag", "-a", "-m", tag, tag);
    }

    private String revParse(String tag) throws Exception {
        return git("rev-parse", tag + "^{commit}").strip();
    }

    private String git(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor())
                .as(String.join(" ", command) + ": " + output)
                .isZero();
        return output;
    }
}
