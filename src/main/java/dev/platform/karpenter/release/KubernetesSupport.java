package dev.platform.karpenter.release;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Kubernetes minors each Karpenter minor supports, with the patch-level exceptions upstream lists (1.0.5 added
 * Kubernetes 1.31 to the 1.0 series): our own table ({@value #RESOURCE}, beside this class), which the vendoring tool
 * derives from upstream's support matrix (hack/docs/compatibilitymatrix_gen/compatibility.yaml of
 * aws/karpenter-provider-aws) and whose first lines name the tag and commit it comes from.
 */
public final class KubernetesSupport {
    public static final String RESOURCE = "kubernetes-support.tsv";
    /** The table's column names, its first line that is not a comment. */
    static final String HEADER = "karpenter\tkubernetes_min\tkubernetes_max";

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

    private static final Pattern APP_VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(x|\\d+)");
    private static final Pattern KUBERNETES_VERSION = Pattern.compile("1\\.(\\d+)");

    /** Read once, on first use. */
    private static final class Matrix {
        static final List<Row> ROWS = read();
    }

    private KubernetesSupport() {}

    /**
     * The Kubernetes versions a release supports: the most specific row that applies (the patch row from its patch
     * on, else the minor's row), empty for a minor upstream does not list.
     */
    public static Optional<KubernetesRange> of(int major, int minor, int patch) {
        return rows().stream()
                .filter(row -> row.appliesTo(major, minor, patch))
                .max(Comparator.comparingInt(Row::fromPatch))
                .map(Row::kubernetes);
    }

    /** The rows of the releases this project generates for, in upstream's order. */
    public static List<Row> supportedRows() {
        return rows().stream().filter(Row::isSupportedByThisProject).toList();
    }

    /**
     * For each Kubernetes minor that some release this project generates for supports, those releases as spans of
     * the matrix ("1.0.5 to 1.10.x", "v0.30.x to v0.31.x or 1.0.x to 1.10.x"), keyed "1.31": what to advise when
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
        for (Row row : rows()) {
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

    /** Every row of upstream's matrix, repeated rows once, in upstream's order. */
    public static List<Row> rows() {
        return Matrix.ROWS;
    }

    private static List<Row> read() {
        try (InputStream in = KubernetesSupport.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the app is built without its " + RESOURCE);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shipped " + RESOURCE, e);
        }
    }

    /** The rows of a table {@link #table} wrote. */
    static List<Row> parse(String table) {
        List<Row> rows = new ArrayList<>();
        for (String line : table.split("\n")) {
            if (line.isBlank() || line.startsWith("#") || line.equals(HEADER)) {
                continue;
            }
            String[] cells = line.split("\t");
            if (cells.length != 3) {
                throw new IllegalStateException(RESOURCE + ": not KARPENTER<TAB>MIN<TAB>MAX: " + line);
            }
            rows.add(row(cells[0], cells[1], cells[2]));
        }
        return List.copyOf(rows);
    }

    /**
     * The table of {@code rows}, after comment lines saying where it comes from: what {@value #RESOURCE} holds.
     */
    public static String table(List<Row> rows, List<String> provenance) {
        StringBuilder out = new StringBuilder();
        provenance.forEach(line -> out.append("# ").append(line).append('\n'));
        out.append(HEADER).append('\n');
        for (Row row : rows) {
            out.append(row.appVersion())
                    .append('\t')
                    .append(row.kubernetes().min())
                    .append('\t')
                    .append(row.kubernetes().max())
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * A row from upstream's spelling: {@code appVersion} "0.30.x" or "1.0.5", the Kubernetes versions "1.23";
     * anything else is refused, naming the value.
     */
    public static Row row(String appVersion, String minKubernetes, String maxKubernetes) {
        Matcher version = APP_VERSION.matcher(appVersion == null ? "" : appVersion);
        if (!version.matches()) {
            throw new IllegalStateException("appVersion " + appVersion + " is not MAJOR.MINOR.x or MAJOR.MINOR.PATCH");
        }
        int fromPatch = version.group(3).equals("x") ? 0 : Integer.parseInt(version.group(3));
        return new Row(
                Integer.parseInt(version.group(1)),
                Integer.parseInt(version.group(2)),
                fromPatch,
                new KubernetesRange(kubernetesMinor(minKubernetes), kubernetesMinor(maxKubernetes)));
    }

    private static int kubernetesMinor(String version) {
        Matcher matcher = KUBERNETES_VERSION.matcher(version == null ? "" : version);
        if (!matcher.matches()) {
            throw new IllegalStateException("Kubernetes version " + version + " is not 1.MINOR");
        }
        return Integer.parseInt(matcher.group(1));
    }
}
