package dev.platform.karpenter.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every generated documentation file is what {@link ReferenceDocs} renders now: a setting, a release or a resource
 * changed without its docs fails here. {@code libexec/write-docs} (this test with {@code -Ddocs=write}) rewrites them.
 */
@KernelOnlyThroughSynthesized
class ReferenceDocsTest {
    private static final boolean WRITE = "write".equals(System.getProperty("docs"));

    @RegisterExtension
    static final Synthesized REFERENCE = reference();

    private static Synthesized reference() {
        Synthesized.Builder app = Synthesized.app();
        ReferenceDocs.REFERENCE_CONFIGS.values().forEach(file -> app.cluster(ConfigLoader.read(file)));
        return app.synthesize();
    }

    @Test
    void everyGeneratedFileIsCurrent() throws IOException {
        Map<Path, String> pages = ReferenceDocs.pages(REFERENCE);
        for (Map.Entry<Path, String> page : pages.entrySet()) {
            if (WRITE) {
                Files.createDirectories(page.getKey().toAbsolutePath().getParent());
                Files.writeString(page.getKey(), page.getValue());
            }
            assertThat(Files.exists(page.getKey()))
                    .as(page.getKey() + " exists; run libexec/write-docs")
                    .isTrue();
            assertThat(Files.readString(page.getKey()))
                    .as(page.getKey() + " is generated; run libexec/write-docs")
                    .isEqualTo(page.getValue());
        }
    }

    @Test
    void theVersionsPageEndsWithTheNewestRelease() {
        assertThat(ReferenceDocs.versionsTable()
                        .get(ReferenceDocs.versionsTable().size() - 1))
                .startsWith("| "
                        + dev.platform.karpenter.release.KarpenterRelease.newest()
                                .minorSeries() + " |");
    }
}
