package dev.platform.karpenter.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Kubernetes ranges come from our own support table, shipped with the app (derived from upstream's matrix). */
class KubernetesSupportTest {

    /** The shipped table's rows as text, read line by line. */
    private static List<List<String>> shippedLines() throws IOException {
        try (InputStream in = KubernetesSupport.class.getResourceAsStream(KubernetesSupport.RESOURCE)) {
            assertThat(in).as("the app ships " + KubernetesSupport.RESOURCE).isNotNull();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(text)
                    .startsWith("# ")
                    .contains("aws/karpenter-provider-aws v")
                    .contains("(commit ");
            return text.lines()
                    .filter(line -> !line.startsWith("#") && !line.equals(KubernetesSupport.HEADER))
                    .map(line -> List.of(line.split("\t")))
                    .toList();
        }
    }

    @Test
    void everyLineOfTheShippedTableIsOneRow() throws IOException {
        List<List<String>> rows = KubernetesSupport.rows().stream()
                .map(row -> List.of(
                        row.appVersion(),
                        row.kubernetes().min(),
                        row.kubernetes().max()))
                .toList();

        assertThat(rows).hasSizeGreaterThan(30).containsExactlyElementsOf(shippedLines());
        assertThat(rows).contains(List.of("0.37.x", "1.23", "1.30"), List.of("1.0.5", "1.25", "1.31"));
    }

    @Test
    void theTableReadsBackAsWritten() {
        List<KubernetesSupport.Row> rows = List.of(
                KubernetesSupport.row("0.30.x", "1.23", "1.27"), KubernetesSupport.row("1.0.5", "1.25", "1.31"));

        String table = KubernetesSupport.table(rows, List.of("derived from somewhere"));

        assertThat(table)
                .isEqualTo("# derived from somewhere\n" + KubernetesSupport.HEADER + "\n"
                        + "0.30.x\t1.23\t1.27\n1.0.5\t1.25\t1.31\n");
        assertThat(KubernetesSupport.parse(table)).isEqualTo(rows);
        assertThatThrownBy(() -> KubernetesSupport.row("1.12.x", "1.26", "2.0"))
                .hasMessage("Kubernetes version 2.0 is not 1.MINOR");
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
}
