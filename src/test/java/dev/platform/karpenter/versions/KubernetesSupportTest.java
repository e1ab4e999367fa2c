package dev.platform.karpenter.versions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The matrix in the code is upstream's compatibility.yaml (a copy in test resources), row for row. */
class KubernetesSupportTest {

    record UpstreamRow(String appVersion, String min, String max) {}

    /** The file's shape; versions read as strings, so 1.30 stays "1.30" (as a number it would be 1.3). */
    record UpstreamFile(String name, List<Entry> compatibility) {
        record Entry(String appVersion, String minK8sVersion, String maxK8sVersion) {}
    }

    private static List<UpstreamRow> upstream() throws IOException {
        try (InputStream in = KubernetesSupportTest.class.getResourceAsStream("/upstream/compatibility.yaml")) {
            UpstreamFile file = new YAMLMapper().readValue(in, UpstreamFile.class);
            // Upstream repeats some rows (1.12.x, 1.14.x) identically; a set of them is the matrix.
            Set<UpstreamRow> rows = new LinkedHashSet<>();
            file.compatibility()
                    .forEach(row ->
                            rows.add(new UpstreamRow(row.appVersion(), row.minK8sVersion(), row.maxK8sVersion())));
            assertThat(rows).hasSizeGreaterThan(30);
            return new ArrayList<>(rows);
        }
    }

    @Test
    void everyUpstreamRowAndNothingElse() throws IOException {
        List<UpstreamRow> ours = KubernetesSupport.ROWS.stream()
                .map(row -> new UpstreamRow(
                        row.appVersion(),
                        row.kubernetes().min(),
                        row.kubernetes().max()))
                .toList();

        assertThat(ours).containsExactlyElementsOf(upstream());
    }

    @Test
    void aPatchRowAppliesFromItsPatchOn() {
        assertThat(KubernetesSupport.of(1, 0, 4)).contains(new KubernetesRange(25, 30));
        assertThat(KubernetesSupport.of(1, 0, 5)).contains(new KubernetesRange(25, 31));
        assertThat(KubernetesSupport.of(1, 0, 14)).contains(new KubernetesRange(25, 31));
        assertThat(KubernetesSupport.of(1, 15, 0)).isEmpty();
    }

    @Test
    void everyUpstreamRowIsWhatItsReleasesReport() throws IOException {
        for (UpstreamRow row : upstream()) {
            String[] parts = row.appVersion().split("\\.");
            int patch = parts[2].equals("x") ? 0 : Integer.parseInt(parts[2]);
            KubernetesRange range = new KarpenterRelease(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), patch)
                    .supportedKubernetes();
            assertThat(range.min()).as(row.appVersion()).isEqualTo(row.min());
            assertThat(range.max()).as(row.appVersion()).isEqualTo(row.max());
        }
    }

    @Test
    void advisesTheReleasesThatSupportEachKubernetesVersion() {
        var advice = KubernetesSupport.supportedReleasesByKubernetesVersion();

        assertThat(advice)
                .containsEntry("1.23", "v0.30.x to 0.37.x")
                .containsEntry("1.24", "v0.30.x to 0.37.x")
                .containsEntry("1.27", "v0.30.x to 1.14.x")
                .containsEntry("1.28", "v0.31.x to 1.14.x")
                .containsEntry("1.30", "0.37.x to 1.14.x")
                .containsEntry("1.31", "1.0.5 to 1.14.x")
                .containsEntry("1.32", "1.2.x to 1.14.x")
                .containsEntry("1.36", "1.13.x to 1.14.x");
        assertThat(advice.keySet()).first().isEqualTo("1.23");
        assertThat(advice.keySet()).last().isEqualTo("1.36");
    }
}
