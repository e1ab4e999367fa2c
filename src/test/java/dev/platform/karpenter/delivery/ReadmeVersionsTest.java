package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.versions.KarpenterRelease;
import dev.platform.karpenter.versions.KubernetesSupport;
import dev.platform.karpenter.versions.KubernetesSupport.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** README's chart × Kubernetes table: the release table's minors with their rows of the shipped support matrix. */
class ReadmeVersionsTest {
    /** What EKS offers on 2026-12-01. */
    static final int EKS_OLDEST = 32;

    static final int EKS_NEWEST = 36;

    @Test
    void theVersionsTableIsTheMatrix() throws IOException {
        List<String> readme = Files.readAllLines(Path.of("README.md"));
        int header = readme.indexOf(header());

        assertThat(header).as("the table's header in README.md").isPositive();
        assertThat(readme.subList(header, header + expected().size())).containsExactlyElementsOf(expected());
        assertThat(readme.get(header + expected().size()))
                .as("nothing after the last row")
                .doesNotStartWith("|");
    }

    static String header() {
        return "| chart | Kubernetes | "
                + String.join(
                        " | ",
                        IntStream.rangeClosed(EKS_OLDEST, EKS_NEWEST)
                                .mapToObj(minor -> "1." + minor)
                                .toList())
                + " |";
    }

    static List<String> expected() {
        List<String> lines =
                new ArrayList<>(List.of(header(), "|---|---|" + "---|".repeat(EKS_NEWEST - EKS_OLDEST + 1)));
        List<Row> rows = KubernetesSupport.supportedRows();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            Row next = i + 1 < rows.size() ? rows.get(i + 1) : null;
            StringBuilder line = new StringBuilder("| ")
                    .append(label(row, next))
                    .append(" | ")
                    .append(row.kubernetes().min())
                    .append("–")
                    .append(row.kubernetes().max())
                    .append(" |");
            for (int minor = EKS_OLDEST; minor <= EKS_NEWEST; minor++) {
                line.append(row.kubernetes().contains("1." + minor) ? " ✓ |" : " – |");
            }
            lines.add(line.toString());
        }
        return lines;
    }

    /** "v0.30.x", "1.0.0–1.0.4" (a minor whose later patches have a row of their own), "1.0.5–1.0.x". */
    private static String label(Row row, Row next) {
        KarpenterRelease first = new KarpenterRelease(row.major(), row.minor(), row.fromPatch());
        if (row.fromPatch() > 0) {
            return first.chartVersion() + "–" + first.minorSeries();
        }
        if (next != null && next.major() == row.major() && next.minor() == row.minor()) {
            return first.chartVersion() + "–"
                    + new KarpenterRelease(row.major(), row.minor(), next.fromPatch() - 1).chartVersion();
        }
        return first.minorSeries();
    }

    /** Prints the table, to paste into README.md after a change of the matrix. */
    public static void main(String[] args) {
        expected().forEach(System.out::println);
    }
}
