package dev.platform.karpenter.upstream;

import dev.platform.karpenter.release.KubernetesSupport;
import dev.platform.karpenter.release.KubernetesSupport.Row;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Upstream's Kubernetes support matrix ({@value #PATH}), read into the rows of our own table
 * ({@link KubernetesSupport#table}).
 */
final class SupportMatrix {
    static final String PATH = "hack/docs/compatibilitymatrix_gen/compatibility.yaml";

    /** The file's shape; versions read as strings, so 1.30 stays "1.30" (as a number it would be 1.3). */
    record MatrixFile(String name, List<Entry> compatibility) {
        record Entry(String appVersion, String minK8sVersion, String maxK8sVersion) {}
    }

    private SupportMatrix() {}

    /** The rows of the matrix {@code reader} reads, repeated rows once, in upstream's order. */
    static List<Row> rows(Reader reader) {
        try {
            return rows(matrixFile(reader));
        } catch (ClassCastException | NullPointerException e) {
            throw new IllegalStateException(PATH + " is not upstream's matrix layout", e);
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
            throw new IllegalStateException(PATH + " is not upstream's matrix layout: no compatibility");
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
            Row row;
            try {
                row = KubernetesSupport.row(entry.appVersion(), entry.minK8sVersion(), entry.maxK8sVersion());
            } catch (IllegalStateException e) {
                throw new IllegalStateException(PATH + ": " + e.getMessage(), e);
            }
            rows.stream()
                    .filter(other -> other.major() == row.major()
                            && other.minor() == row.minor()
                            && other.fromPatch() == row.fromPatch()
                            && !other.equals(row))
                    .findFirst()
                    .ifPresent(other -> {
                        throw new IllegalStateException(PATH + " lists " + row.appVersion() + " twice, as "
                                + other.kubernetes() + " and as " + row.kubernetes());
                    });
            rows.add(row);
        }
        return List.copyOf(rows);
    }
}
