package dev.platform.karpenter.release;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;
import org.yaml.snakeyaml.events.StreamStartEvent;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Upstream's Kubernetes support matrix, read from the copy of its compatibility.yaml shipped beside this class
 * (hack/docs/compatibilitymatrix_gen/compatibility.yaml of aws/karpenter-provider-aws): which Kubernetes minors each
 * Karpenter minor supports, with the patch-level exceptions upstream lists (1.0.5 added Kubernetes 1.31 to the 1.0
 * series).
 */
public final class KubernetesSupport {
    static final String RESOURCE = "compatibility.yaml";

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

    /** The file's shape; versions read as strings, so 1.30 stays "1.30" (as a number it would be 1.3). */
    record MatrixFile(String name, List<Entry> compatibility) {
        record Entry(String appVersion, String minK8sVersion, String maxK8sVersion) {}
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
            // SnakeYAML's event parser, not its Yaml facade or a Jackson YAMLMapper: the matrix is read in every
            // synth, and either costs more to set up than reading the whole file (about 60 ms of a synth's start).
            return rows(matrixFile(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (ClassCastException | NullPointerException e) {
            throw new IllegalStateException("the shipped " + RESOURCE + " is not upstream's matrix layout", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shipped " + RESOURCE, e);
        }
    }

    /**
     * Read from the parser's events, so that scalars keep their text: an unquoted 1.30 stays "1.30", not 1.3. The
     * layout is upstream's: a mapping whose "compatibility" is a list of mappings of scalars; other keys are skipped.
     */
    static MatrixFile matrixFile(Reader reader) {
        return matrixFile(new ParserImpl(new StreamReader(reader), new LoaderOptions()));
    }

    private static MatrixFile matrixFile(Parser parser) {
        expect(parser, StreamStartEvent.class);
        expect(parser, DocumentStartEvent.class);
        expect(parser, MappingStartEvent.class);
        String name = null;
        List<MatrixFile.Entry> entries = null;
        while (!parser.checkEvent(Event.ID.MappingEnd)) {
            String key = scalar(parser);
            if (key.equals("compatibility")) {
                expect(parser, SequenceStartEvent.class);
                entries = new ArrayList<>();
                while (!parser.checkEvent(Event.ID.SequenceEnd)) {
                    Map<String, String> entry = scalars(parser);
                    entries.add(new MatrixFile.Entry(
                            entry.get("appVersion"), entry.get("minK8sVersion"), entry.get("maxK8sVersion")));
                }
                parser.getEvent();
            } else if (key.equals("name")) {
                name = scalar(parser);
            } else {
                skipValue(parser);
            }
        }
        if (entries == null) {
            throw new IllegalStateException(
                    "the shipped " + RESOURCE + " is not upstream's matrix layout: no compatibility");
        }
        return new MatrixFile(name, entries);
    }

    /** A mapping's scalar values by key (other values skipped), its end consumed. */
    private static Map<String, String> scalars(Parser parser) {
        expect(parser, MappingStartEvent.class);
        Map<String, String> fields = new LinkedHashMap<>();
        while (!parser.checkEvent(Event.ID.MappingEnd)) {
            String key = scalar(parser);
            if (parser.checkEvent(Event.ID.Scalar)) {
                fields.put(key, scalar(parser));
            } else {
                skipValue(parser);
            }
        }
        parser.getEvent();
        return fields;
    }

    private static String scalar(Parser parser) {
        return expect(parser, ScalarEvent.class).getValue();
    }

    private static void skipValue(Parser parser) {
        int depth = 0;
        do {
            Event event = parser.getEvent();
            if (event instanceof CollectionStartEvent) {
                depth++;
            } else if (event instanceof CollectionEndEvent) {
                depth--;
            }
        } while (depth > 0);
    }

    /** The next event, which must be of {@code type} (the ClassCastException says the layout is not upstream's). */
    private static <E extends Event> E expect(Parser parser, Class<E> type) {
        return type.cast(parser.getEvent());
    }

    /** The rows of {@code file}; upstream repeats some rows identically (1.12.x and others), which count once. */
    static List<Row> rows(MatrixFile file) {
        Set<Row> rows = new LinkedHashSet<>();
        for (MatrixFile.Entry entry : file.compatibility()) {
            Row row = row(entry);
            rows.stream()
                    .filter(other -> other.major() == row.major()
                            && other.minor() == row.minor()
                            && other.fromPatch() == row.fromPatch()
                            && !other.equals(row))
                    .findFirst()
                    .ifPresent(other -> {
                        throw new IllegalStateException(RESOURCE + " lists " + row.appVersion() + " twice, as "
                                + other.kubernetes() + " and as " + row.kubernetes());
                    });
            rows.add(row);
        }
        return List.copyOf(rows);
    }

    private static Row row(MatrixFile.Entry entry) {
        Matcher version = APP_VERSION.matcher(entry.appVersion());
        if (!version.matches()) {
            throw new IllegalStateException(RESOURCE + ": appVersion " + entry.appVersion() + " is not MAJOR.MINOR.x");
        }
        int fromPatch = version.group(3).equals("x") ? 0 : Integer.parseInt(version.group(3));
        return new Row(
                Integer.parseInt(version.group(1)),
                Integer.parseInt(version.group(2)),
                fromPatch,
                new KubernetesRange(kubernetesMinor(entry.minK8sVersion()), kubernetesMinor(entry.maxK8sVersion())));
    }

    private static int kubernetesMinor(String version) {
        Matcher matcher = KUBERNETES_VERSION.matcher(version == null ? "" : version);
        if (!matcher.matches()) {
            throw new IllegalStateException(RESOURCE + ": Kubernetes version " + version + " is not 1.MINOR");
        }
        return Integer.parseInt(matcher.group(1));
    }
}
