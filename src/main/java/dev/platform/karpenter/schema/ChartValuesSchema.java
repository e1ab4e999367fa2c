package dev.platform.karpenter.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.release.KarpenterRelease;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.comments.CommentLine;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The values one release's karpenter chart declares: which keys exist, and what kind of value each takes, judged
 * from the chart's default. Derived from upstream's values.yaml by the vendoring tool ({@link #parse}) and shipped
 * per minor as our own facts file ({@value #FACTS_FILE}: paths, kinds and defaults, no comments), which the app reads
 * ({@link #of}).
 *
 * <p>A map is a set of declared keys, except where it is open: an empty map ({@code podAnnotations: {}}), or a map
 * documented as a whole ({@code # -- Affinity rules...} above {@code affinity:}, with no documented key under it:
 * {@code affinity}, {@code nodeSelector}, {@code strategy}, {@code podSecurityContext}). That is the chart's own
 * convention (helm-docs lists each documented key as one value) and so its count of values (79 on the newest release). An open map
 * takes any key and any value under it. A {@code null} default ({@code terminationGracePeriodSeconds:}) takes any
 * value. A value of any key may be {@code null}, which makes Helm drop the chart's default.
 *
 * <p>Compiled once per minor and cached: every cluster of a run on that minor shares it.
 */
public final class ChartValuesSchema {
    /** What a declared value takes. */
    public enum Kind {
        /** A map of declared keys. */
        OBJECT("an object"),
        /** A map of any keys and values. */
        OPEN_OBJECT("an object"),
        LIST("a list"),
        STRING("a string"),
        BOOLEAN("true or false"),
        INTEGER("a whole number"),
        NUMBER("a number"),
        INTEGER_OR_STRING("a whole number or a string"),
        ANY("anything");

        private final String expected;

        Kind(String expected) {
            this.expected = expected;
        }
    }

    /**
     * One value of the chart, a leaf of the values tree: a scalar, a list or an open map.
     *
     * @param path         its keys from the root
     * @param chartDefault the default as values.yaml writes it, for scalars; null for lists, maps and null
     */
    public record Value(List<String> path, Kind kind, String chartDefault) {}

    /**
     * Why a values tree does not fit.
     *
     * @param path    the keys (and list indexes) from the root to the offending value, written as {@link #display}
     * @param message what is wrong, e.g. "unknown key; did you mean logLevel?"
     */
    public record Violation(String path, String message) {}

    /**
     * Keys whose default says less than the chart's templates read. initContainers defaults to {@code {}} though the
     * Deployment's initContainers is a list (values.yaml's own commented example is one); a PodDisruptionBudget's
     * maxUnavailable is a number or a percentage, the default only the number 1.
     */
    private static final Map<List<String>, Kind> WIDER_THAN_DEFAULT = Map.of(
            List.of("initContainers"), Kind.LIST,
            List.of("podDisruptionBudget", "maxUnavailable"), Kind.INTEGER_OR_STRING);

    /** The facts file of a minor, beside its release.properties. */
    public static final String FACTS_FILE = "chart-values.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, ChartValuesSchema> BY_MINOR = new ConcurrentHashMap<>();
    private static final Pattern BARE_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final LevenshteinDistance DISTANCE = LevenshteinDistance.getDefaultInstance();
    private static final int MAX_SHOWN_DEFAULT = 40;

    /** A node of the declared tree; {@code children} only for {@link Kind#OBJECT}, in values.yaml's order. */
    private record Declared(Kind kind, String chartDefault, Map<String, Declared> children) {}

    private final Declared root;
    private final String version;

    private ChartValuesSchema(Declared root, String version) {
        this.root = root;
        this.version = version;
    }

    /** The schema of {@code release}'s chart, from the facts shipped for its minor (ReleaseSchemas). */
    public static ChartValuesSchema of(KarpenterRelease release) {
        // Only the chart's facts: the CRDs, which ReleaseSchemas.of compiles, are not needed here.
        return BY_MINOR.computeIfAbsent(ReleaseSchemas.minor(release), minor -> {
            try (InputStream in = ReleaseSchemas.resource(minor, FACTS_FILE)) {
                return fromFacts(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * The facts file of this schema: where it was derived from, then every value (its path, kind and, for
     * scalars, the chart's default) one per line in values.yaml's order. The same schema gives the same bytes.
     */
    public byte[] facts(String repository, String tag, String commit, String path) {
        try {
            StringBuilder out = new StringBuilder("{\"derivedFrom\": ");
            ObjectNode source = JSON.createObjectNode()
                    .put("repository", repository)
                    .put("tag", tag)
                    .put("commit", commit)
                    .put("path", path);
            out.append(JSON.writeValueAsString(source)).append(",\n\"values\": [");
            String separator = "\n";
            for (Value value : values()) {
                ObjectNode line = JSON.createObjectNode();
                value.path().forEach(line.putArray("path")::add);
                line.put("kind", value.kind().name());
                if (value.chartDefault() != null) {
                    line.put("default", value.chartDefault());
                }
                out.append(separator).append(JSON.writeValueAsString(line));
                separator = ",\n";
            }
            return out.append("\n]}\n").toString().getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema a facts file ({@link #facts}) describes. */
    public static ChartValuesSchema fromFacts(InputStream facts) throws IOException {
        JsonNode document = JSON.readTree(facts);
        Map<String, Object> root = new LinkedHashMap<>();
        for (JsonNode value : document.path("values")) {
            Map<String, Object> parent = root;
            JsonNode path = value.path("path");
            for (int i = 0; i < path.size() - 1; i++) {
                @SuppressWarnings("unchecked")
                Map<String, Object> inner = (Map<String, Object>)
                        parent.computeIfAbsent(path.get(i).asText(), key -> new LinkedHashMap<String, Object>());
                parent = inner;
            }
            JsonNode chartDefault = value.path("default");
            parent.put(
                    path.get(path.size() - 1).asText(),
                    new Declared(
                            Kind.valueOf(value.path("kind").asText()),
                            chartDefault.isMissingNode() ? null : chartDefault.asText(),
                            Map.of()));
        }
        String tag = document.at("/derivedFrom/tag").asText();
        return new ChartValuesSchema(declaredObject(root), tag.replaceFirst("^v", ""));
    }

    /** The read tree of maps (declared objects) and leaves as one declared object. */
    private static Declared declaredObject(Map<String, Object> tree) {
        Map<String, Declared> children = new LinkedHashMap<>();
        tree.forEach((key, child) ->
                children.put(key, child instanceof Declared leaf ? leaf : declaredObject(castTree(child))));
        return new Declared(Kind.OBJECT, null, Collections.unmodifiableMap(children));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castTree(Object tree) {
        return (Map<String, Object>) tree;
    }

    /**
     * The schema of a values.yaml text, of the Karpenter release {@code version} (for messages): how the vendoring
     * tool derives the facts.
     */
    public static ChartValuesSchema parse(Reader valuesYaml, String version) {
        LoaderOptions options = new LoaderOptions();
        options.setProcessComments(true);
        Node document = new Yaml(options).compose(valuesYaml);
        if (!(document instanceof MappingNode mapping)) {
            throw new IllegalArgumentException("a chart's values.yaml is a map");
        }
        return new ChartValuesSchema(object(List.of(), mapping), version);
    }

    /** The Karpenter release whose values.yaml this is, e.g. "1.10.2". */
    public String version() {
        return version;
    }

    private static Declared object(List<String> path, MappingNode mapping) {
        Map<String, Declared> children = new LinkedHashMap<>();
        for (NodeTuple entry : mapping.getValue()) {
            ScalarNode key = (ScalarNode) entry.getKeyNode();
            List<String> childPath = append(path, key.getValue());
            children.put(key.getValue(), declared(childPath, entry.getValueNode(), documented(key)));
        }
        return new Declared(Kind.OBJECT, null, Collections.unmodifiableMap(children));
    }

    private static Declared declared(List<String> path, Node value, boolean documented) {
        Kind wider = WIDER_THAN_DEFAULT.get(path);
        if (wider != null) {
            return new Declared(wider, null, Map.of());
        }
        if (value instanceof MappingNode mapping) {
            boolean open = mapping.getValue().isEmpty() || (documented && !holdsDocumentedKeys(mapping));
            return open ? new Declared(Kind.OPEN_OBJECT, null, Map.of()) : object(path, mapping);
        }
        if (value instanceof SequenceNode) {
            return new Declared(Kind.LIST, null, Map.of());
        }
        ScalarNode scalar = (ScalarNode) value;
        Tag tag = scalar.getTag();
        Kind kind = tag.equals(Tag.STR)
                ? Kind.STRING
                : tag.equals(Tag.BOOL)
                        ? Kind.BOOLEAN
                        : tag.equals(Tag.INT) ? Kind.INTEGER : tag.equals(Tag.FLOAT) ? Kind.NUMBER : Kind.ANY;
        return new Declared(kind, kind == Kind.ANY ? null : scalar.getValue(), Map.of());
    }

    /** helm-docs' mark of a documented key: a comment line starting with "--" right above it. */
    private static boolean documented(ScalarNode key) {
        List<CommentLine> comments = key.getBlockComments();
        return comments != null
                && comments.stream().anyMatch(line -> line.getValue().strip().startsWith("--"));
    }

    private static boolean holdsDocumentedKeys(MappingNode mapping) {
        for (NodeTuple entry : mapping.getValue()) {
            if (documented((ScalarNode) entry.getKeyNode())
                    || (entry.getValueNode() instanceof MappingNode inner && holdsDocumentedKeys(inner))) {
                return true;
            }
        }
        return false;
    }

    /** Every value of the chart, in values.yaml's order. */
    public List<Value> values() {
        List<Value> values = new ArrayList<>();
        collect(List.of(), root, values);
        return List.copyOf(values);
    }

    private static void collect(List<String> path, Declared node, List<Value> into) {
        if (node.kind() != Kind.OBJECT) {
            into.add(new Value(path, node.kind(), node.chartDefault()));
            return;
        }
        node.children().forEach((key, child) -> collect(append(path, key), child, into));
    }

    /** Whether the chart takes a value at {@code path}: a declared key, or any key inside an open map. */
    public boolean takes(List<String> path) {
        Declared node = root;
        for (String key : path) {
            if (node.kind() == Kind.OPEN_OBJECT || node.kind() == Kind.ANY) {
                return true;
            }
            node = node.children().get(key);
            if (node == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first problem of a values tree as {@code TfvarsFile} reads one (maps, lists, strings, booleans, Long or
     * Double numbers, nulls), in the order it is written; empty when the chart takes it all.
     */
    public Optional<Violation> check(Map<String, ?> values) {
        return checkObject(List.of(), root, values);
    }

    private Optional<Violation> checkObject(List<Object> path, Declared node, Map<?, ?> values) {
        for (Map.Entry<?, ?> entry : values.entrySet()) {
            String key = String.valueOf(entry.getKey());
            List<Object> childPath = append(path, key);
            Declared child = node.children().get(key);
            if (child == null) {
                return Optional.of(new Violation(display(childPath), unknownKey(path, node, key, entry.getValue())));
            }
            Object value = entry.getValue();
            if (value == null) {
                continue;
            }
            if (!fits(child.kind(), value)) {
                return Optional.of(new Violation(display(childPath), wrongKind(child, value)));
            }
            if (child.kind() == Kind.OBJECT) {
                Optional<Violation> inner = checkObject(childPath, child, (Map<?, ?>) value);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        }
        return Optional.empty();
    }

    private static boolean fits(Kind kind, Object value) {
        return switch (kind) {
            case OBJECT, OPEN_OBJECT -> value instanceof Map<?, ?>;
            case LIST -> value instanceof List<?>;
            case STRING -> value instanceof String;
            case BOOLEAN -> value instanceof Boolean;
            case INTEGER -> isWholeNumber(value);
            case NUMBER -> value instanceof Number;
            case INTEGER_OR_STRING -> isWholeNumber(value) || value instanceof String;
            case ANY -> true;
        };
    }

    private static boolean isWholeNumber(Object value) {
        return value instanceof Long || value instanceof Integer || value instanceof java.math.BigInteger;
    }

    private static String wrongKind(Declared declared, Object value) {
        String shownDefault =
                declared.chartDefault() == null || declared.chartDefault().length() > MAX_SHOWN_DEFAULT
                        ? ""
                        : " (the chart's default is "
                                + (declared.kind() == Kind.STRING
                                        ? "\"" + declared.chartDefault() + "\""
                                        : declared.chartDefault())
                                + ")";
        return "must be " + declared.kind().expected + shownDefault + ", got " + describe(value);
    }

    private static String describe(Object value) {
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof List<?>) {
            return "a list";
        }
        if (value instanceof Map<?, ?>) {
            return "an object";
        }
        return String.valueOf(value);
    }

    /**
     * Names the key meant: where the keys under it belong to its parent, the first of them there; where a key of
     * that name exists elsewhere in the chart (written at the wrong level), its path; otherwise the sibling nearest in edit distance, ignoring case, as a suggestion when it is nearer than a
     * whole rewrite of the key.
     */
    private String unknownKey(List<Object> parentPath, Declared parent, String key, Object value) {
        // A level too many, as a release that moved its keys up has it (0.32 to 0.33: settings.aws.* to settings.*).
        if (value instanceof Map<?, ?> map) {
            for (Object inner : map.keySet()) {
                if (parent.children().containsKey(String.valueOf(inner))) {
                    return "unknown key; did you mean " + display(append(parentPath, String.valueOf(inner))) + "?";
                }
            }
        }
        List<List<String>> elsewhere = new ArrayList<>();
        paths(List.of(), root, key, elsewhere);
        if (!elsewhere.isEmpty()) {
            return "unknown key; did you mean "
                    + display(elsewhere.stream()
                            .min(Comparator.comparingInt(List::size))
                            .orElseThrow())
                    + "?";
        }
        String lower = key.toLowerCase(Locale.ROOT);
        String nearest = parent.children().keySet().stream()
                .min(Comparator.comparingInt(sibling -> distance(lower, sibling)))
                .orElseThrow(() -> new IllegalStateException("a declared map without keys at " + display(parentPath)));
        return distance(lower, nearest) < key.length()
                ? "unknown key; did you mean " + nearest + "?"
                : "unknown key in this release's chart; the nearest is " + nearest;
    }

    private static int distance(String lowerKey, String sibling) {
        return DISTANCE.apply(lowerKey, sibling.toLowerCase(Locale.ROOT));
    }

    /** The paths of the declared keys spelt {@code key} (ignoring case). */
    private static void paths(List<String> path, Declared node, String key, List<List<String>> into) {
        node.children().forEach((name, child) -> {
            List<String> childPath = append(path, name);
            if (name.equalsIgnoreCase(key)) {
                into.add(childPath);
            }
            paths(childPath, child, key, into);
        });
    }

    /**
     * A path as a user writes it in messages: keys joined by dots, a key that is not a plain name in double quotes
     * ({@code serviceAccount.annotations."eks.amazonaws.com/role-arn"}), list indexes in brackets ({@code
     * tolerations[0].key}).
     */
    public static String display(List<?> path) {
        StringBuilder out = new StringBuilder();
        for (Object segment : path) {
            if (segment instanceof Integer index) {
                out.append('[').append(index).append(']');
                continue;
            }
            String key = segment.toString();
            if (!out.isEmpty()) {
                out.append('.');
            }
            out.append(
                    BARE_KEY.matcher(key).matches()
                            ? key
                            : "\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
        }
        return out.toString();
    }

    private static <T> List<T> append(List<? extends T> path, T segment) {
        List<T> longer = new ArrayList<>(path);
        longer.add(segment);
        return List.copyOf(longer);
    }
}
