package dev.platform.karpenter.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KubernetesSupport;
import dev.platform.karpenter.release.ReleaseMetrics;
import dev.platform.karpenter.testing.Mirror;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The facts the app ships are what the vendoring tool derives from the upstream mirror, byte for byte: each minor's
 * CRDs, chart values, metrics and release.properties, and the Kubernetes support table (a minor's hand-checked
 * metrics, {@link ReleaseMetrics#CODE_CHECKED}, are not derived). (The instance catalogue is made from
 * generated Go files the mirror does not hold; CatalogueSourceTest checks its conversion on excerpts.)
 */
@NeedsUpstreamMirror
class VendoredFactsTest {
    private static final Path RELEASE = Path.of("src/main/resources/dev/platform/karpenter/release");

    static Stream<String> minors() {
        return KarpenterMinor.all().stream().map(minor -> minor.major() + "." + minor.minor());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("minors")
    void eachMinorsFactsAreWhatTheToolDerivesFromTheMirror(String minor) throws IOException {
        Path dir = RELEASE.resolve("releases").resolve(minor);
        Properties release = properties(dir.resolve("release.properties"));

        Map<String, byte[]> derived =
                ReleaseVendor.derive(Mirror.require(), release.getProperty("tag"), release.getProperty("commit"));

        Map<String, byte[]> committed = files(dir);
        committed.remove(ReleaseMetrics.CODE_CHECKED);
        assertThat(committed.keySet()).isEqualTo(derived.keySet());
        derived.forEach((file, bytes) ->
                assertThat(committed.get(file)).as(minor + "/" + file).isEqualTo(bytes));
    }

    @Test
    void theSupportTableIsWhatTheToolDerivesFromTheNewestRelease() throws IOException {
        String newest =
                KarpenterMinor.newest().major() + "." + KarpenterMinor.newest().minor();
        Properties release =
                properties(RELEASE.resolve("releases").resolve(newest).resolve("release.properties"));

        String derived =
                ReleaseVendor.supportTable(Mirror.require(), release.getProperty("tag"), release.getProperty("commit"));

        assertThat(Files.readString(RELEASE.resolve(KubernetesSupport.RESOURCE), StandardCharsets.UTF_8))
                .isEqualTo(derived);
    }

    private static Properties properties(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        return properties;
    }

    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }
}
