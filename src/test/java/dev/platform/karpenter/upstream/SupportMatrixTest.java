package dev.platform.karpenter.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.release.KubernetesRange;
import dev.platform.karpenter.release.KubernetesSupport;
import dev.platform.karpenter.upstream.SupportMatrix.MatrixFile;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Upstream's support matrix read as upstream wrote it, into the rows of our table. */
class SupportMatrixTest {
    @Test
    void aRepeatedRowCountsOnceAndAContradictingOneIsRefused() {
        MatrixFile.Entry row = new MatrixFile.Entry("1.12.x", "1.26", "1.35");

        assertThat(SupportMatrix.rows(new MatrixFile("karpenter", List.of(row, row))))
                .containsExactly(new KubernetesSupport.Row(1, 12, 0, new KubernetesRange(26, 35)));
        assertThatThrownBy(() -> SupportMatrix.rows(
                        new MatrixFile("karpenter", List.of(row, new MatrixFile.Entry("1.12.x", "1.26", "1.36")))))
                .hasMessage(SupportMatrix.PATH + " lists 1.12.x twice, as 1.26 to 1.35 and as 1.26 to 1.36");
        assertThatThrownBy(() -> SupportMatrix.rows(
                        new MatrixFile("karpenter", List.of(new MatrixFile.Entry("1.12.x", "1.26", "2.0")))))
                .hasMessage(SupportMatrix.PATH + ": Kubernetes version 2.0 is not 1.MINOR");
    }

    @Test
    void theMatrixIsReadFromUpstreamsLayoutKeepingVersionsAsWrittenAndSkippingWhatItDoesNotRead() {
        MatrixFile file = SupportMatrix.matrixFile(new StringReader("""
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
        assertThatThrownBy(() -> SupportMatrix.rows(new StringReader("name: karpenter\n")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no compatibility");
    }
}
