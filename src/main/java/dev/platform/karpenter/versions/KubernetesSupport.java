package dev.platform.karpenter.versions;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Upstream's Kubernetes support matrix, row for row (hack/docs/compatibilitymatrix_gen/compatibility.yaml of
 * aws/karpenter-provider-aws): which Kubernetes minors each Karpenter minor supports, with the patch-level
 * exceptions upstream lists (1.0.5 added Kubernetes 1.31 to the 1.0 series). A test compares these rows to a copy
 * of that file.
 */
public final class KubernetesSupport {

    /**
     * One row of the matrix.
     *
     * @param fromPatch the row applies from this patch of the minor on: 0 for upstream's "x" rows, 5 for "1.0.5"
     */
    public record Row(int major, int minor, int fromPatch, KubernetesRange kubernetes) {
        /** The version as upstream's matrix spells it: "0.30.x", "1.0.5". */
        public String appVersion() {
            return major + "." + minor + "." + (fromPatch == 0 ? "x" : String.valueOf(fromPatch));
        }

        /** The first release the row covers, spelled as the registry does, or the series: "1.0.5", "v0.31.x". */
        String label() {
            KarpenterRelease first = new KarpenterRelease(major, minor, fromPatch);
            return fromPatch == 0 ? first.minorSeries() : first.chartVersion();
        }

        boolean isSupportedByThisProject() {
            return new KarpenterRelease(major, minor, fromPatch).isSupported();
        }

        boolean appliesTo(int releaseMajor, int releaseMinor, int releasePatch) {
            return major == releaseMajor && minor == releaseMinor && releasePatch >= fromPatch;
        }
    }

    /** Every row of upstream's matrix, duplicates left out, in upstream's order. */
    public static final List<Row> ROWS = List.of(
            row(0, 21, 0, 21, 24),
            row(0, 22, 0, 21, 24),
            row(0, 23, 0, 21, 24),
            row(0, 24, 0, 21, 24),
            row(0, 25, 0, 21, 25),
            row(0, 26, 0, 21, 25),
            row(0, 27, 0, 21, 25),
            row(0, 28, 0, 23, 27),
            row(0, 29, 0, 23, 27),
            row(0, 30, 0, 23, 27),
            row(0, 31, 0, 23, 28),
            row(0, 32, 0, 23, 28),
            row(0, 33, 0, 23, 28),
            row(0, 34, 0, 23, 29),
            row(0, 35, 0, 23, 29),
            row(0, 36, 0, 23, 29),
            row(0, 37, 0, 23, 30),
            row(1, 0, 0, 25, 30),
            row(1, 0, 5, 25, 31),
            row(1, 1, 0, 25, 31),
            row(1, 2, 0, 25, 32),
            row(1, 3, 0, 25, 32),
            row(1, 4, 0, 25, 32),
            row(1, 5, 0, 26, 33),
            row(1, 6, 0, 26, 34),
            row(1, 7, 0, 26, 34),
            row(1, 8, 0, 26, 34),
            row(1, 9, 0, 26, 35),
            row(1, 10, 0, 26, 35),
            row(1, 11, 0, 26, 35),
            row(1, 12, 0, 26, 35),
            row(1, 13, 0, 26, 36),
            row(1, 14, 0, 26, 36));

    private KubernetesSupport() {}

    /**
     * The Kubernetes versions a release supports: the most specific row that applies (the patch row from its patch
     * on, else the minor's row), empty for a minor upstream does not list.
     */
    public static Optional<KubernetesRange> of(int major, int minor, int patch) {
        return ROWS.stream()
                .filter(row -> row.appliesTo(major, minor, patch))
                .max(Comparator.comparingInt(Row::fromPatch))
                .map(Row::kubernetes);
    }

    /** The rows of the releases this project generates for, in upstream's order. */
    public static List<Row> supportedRows() {
        return ROWS.stream().filter(Row::isSupportedByThisProject).toList();
    }

    /**
     * For each Kubernetes minor that some release this project generates for supports, those releases as spans of
     * the matrix ("1.0.5 to 1.14.x", "v0.30.x to v0.31.x or 1.0.x to 1.14.x"), keyed "1.31": what to advise when
     * a cluster runs that version.
     */
    public static Map<String, String> supportedReleasesByKubernetesVersion() {
        List<Row> supported = supportedRows();
        int oldest = supported.stream()
                .mapToInt(row -> row.kubernetes().minMinor())
                .min()
                .orElseThrow();
        int newest = supported.stream()
                .mapToInt(row -> row.kubernetes().maxMinor())
                .max()
                .orElseThrow();
        Map<String, String> advice = new LinkedHashMap<>();
        for (int kubernetes = oldest; kubernetes <= newest; kubernetes++) {
            advice.put("1." + kubernetes, String.join(" or ", spans(kubernetes)));
        }
        return advice;
    }

    /** Runs of consecutive rows that this project supports and that include Kubernetes 1.{kubernetes}. */
    private static List<String> spans(int kubernetes) {
        List<String> spans = new ArrayList<>();
        Row first = null;
        Row last = null;
        for (Row row : ROWS) {
            boolean fits = row.isSupportedByThisProject() && row.kubernetes().contains("1." + kubernetes);
            if (fits) {
                first = first == null ? row : first;
                last = row;
            } else if (first != null) {
                spans.add(span(first, last));
                first = null;
            }
        }
        if (first != null) {
            spans.add(span(first, last));
        }
        return spans;
    }

    private static String span(Row first, Row last) {
        String end = new KarpenterRelease(last.major(), last.minor(), 0).minorSeries();
        return first == last && first.fromPatch() == 0 ? end : first.label() + " to " + end;
    }

    private static Row row(int major, int minor, int fromPatch, int minKubernetes, int maxKubernetes) {
        return new Row(major, minor, fromPatch, new KubernetesRange(minKubernetes, maxKubernetes));
    }
}
