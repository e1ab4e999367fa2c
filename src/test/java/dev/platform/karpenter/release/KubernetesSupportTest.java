package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.release.KubernetesSupport.MatrixFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Kubernetes ranges are upstream's compatibility.yaml, shipped with the app, read as upstream wrote it. */
class KubernetesSupportTest {

    /**
     * The shipped file's entries as the text upstream wrote, repeats once: what the reader must have made of it
     * (read line by line, since a YAML number would lose the zero of 1.30).
     */
    private static Set<List<String>> shippedEntries() throws IOException {
        try (InputStream in = KubernetesSupport.class.getResourceAsStream(KubernetesSupport.RESOURCE)) {
            assertThat(in).as("the app ships " + KubernetesSupport.RESOURCE).isNotNull();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher entry = Pattern.compile("- appVersion: (\\S+)\\s+minK8sVersion: (\\S+)\\s+maxK8sVersion: (\\S+)")
                    .matcher(text);
            Set<List<String>> entries = new LinkedHashSet<>();
            while (entry.find()) {
                entries.add(List.of(entry.group(1), entry.group(2), entry.group(3)));
            }
            return entries;
        }
    }

    @Test
    void everyEntryOfTheShippedMatrixIsOneRowAsUpstreamWroteIt() throws IOException {
        List<List<String>> rows = KubernetesSupport.rows().stream()
                .map(row -> List.of(
                        row.appVersion(),
                        row.kubernetes().min(),
                        row.kubernetes().max()))
                .toList();

        assertThat(rows).hasSizeGreaterThan(30).containsExactlyElementsOf(shippedEntries());
        assertThat(rows).contains(List.of("0.37.x", "1.23", "1.30"));
    }

    @Test
    void everySupportedReleaseHasItsRangeInTheMatrix() {
        for (KarpenterMinor minor : KarpenterMinor.all()) {
            for (KarpenterRelease release : List.of(minor.firstRelease(), minor.newestRelease())) {
                KubernetesRange range = release.supportedKubernetes();
                assertThat(range.minMinor()).as(release.chartVersion()).isLessThanOrEqualTo(range.maxMinor());
            }
        }
    }

    @Test
    void aRepeatedRowCountsOnceAndAContradictingOneIsRefused() {
        MatrixFile.Entry row = new MatrixFile.Entry("1.12.x", "1.26", "1.35");

        assertThat(KubernetesSupport.rows(new MatrixFile("karpenter", List.of(row, row))))
                .containsExactly(new KubernetesSupport.Row(1, 12, 0, new KubernetesRange(26, 35)));
        assertThatThrownBy(() -> KubernetesSupport.rows(
                        new MatrixFile("karpenter", List.of(row, new MatrixFile.Entry("1.12.x", "1.26", "1.36")))))
                .hasMessage("compatibility.yaml lists 1.12.x twice, as 1.26 to 1.35 and as 1.26 to 1.36");
        assertThatThrownBy(() -> KubernetesSupport.rows(
                        new MatrixFile("karpenter", List.of(new MatrixFile.Entry("1.12.x", "1.26", "2.0")))))
                .hasMessage("compatibility.yaml: Kubernetes version 2.0 is not 1.MINOR");
    }

    @Test
    void aPatchRowAppliesFromItsPatchOn() {
        assertThat(KubernetesSupport.of(1, 0, 4)).contains(new KubernetesRange(25, 30));
        assertThat(KubernetesSupport.of(1, 0, 5)).contains(new KubernetesRange(25, 31));
        assertThat(KubernetesSupport.of(1, 0, 14)).contains(new KubernetesRange(25, 31));
        assertThat(KubernetesSupport.of(2, 0, 0)).isEmpty();
    }

    @Test
    void advisesTheReleasesThatSupportEachKubernetesVersion() {
        String newest = KarpenterMinor.newest().series();
        KubernetesRange newestRange = KarpenterRelease.newest().supportedKubernetes();

        Map<String, String> advice = KubernetesSupport.supportedReleasesByKubernetesVersion();

        assertThat(advice)
                .containsEntry("1.23", "v0.30.x to 0.37.x")
                .containsEntry("1.27", "v0.30.x to " + newest)
                .containsEntry("1.28", "v0.31.x to " + newest)
                .containsEntry("1.30", "0.37.x to " + newest)
                .containsEntry("1.31", "1.0.5 to " + newest)
                .containsEntry("1.32", "1.2.x to " + newest);
        assertThat(advice.keySet()).first().isEqualTo("1.23");
        assertThat(advice.keySet()).last().isEqualTo(newestRange.max());
        assertThat(advice.get(newestRange.max())).endsWith(newest);
    }

    @Test
    void theMatrixIsReadFromUpstreamsLayoutKeepingVersionsAsWrittenAndSkippingWhatItDoesNotRead() {
        MatrixFile file = KubernetesSupport.matrixFile(new StringReader("""
                name: karpenter
                notes: { reviewed: [a, b] }
                compatibility:
                  - appVersion: 1.12.x
                    minK8sVersion: 1.30
                    maxK8sVersion: "1.35"
                    links: [https://example.com]
                """));

        assertThat(file.name()).isEqualTo("karpenter");
        assertThat(file.compatibility()).containsExactly(new MatrixFile.Entry("1.12.x", "1.30", "1.35"));
        assertThatThrownBy(() -> KubernetesSupport.matrixFile(new StringReader("name: karpenter\n")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no compatibility");
    }
}
