package dev.platform.karpenter.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.platform.karpenter.catalog.CatalogueSource;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KubernetesSupport;
import dev.platform.karpenter.release.ReleaseMetrics;
import dev.platform.karpenter.schema.ChartValuesSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Derives what the app validates against from upstream Karpenter release tags in an {@link UpstreamMirror} into
 * src/main/resources/dev/platform/karpenter/release/releases/MAJOR.MINOR/ (libexec/vendor-release runs it and says
 * how): the chart's values as paths, kinds and defaults ({@link ChartValuesSchema#FACTS_FILE}), the metrics its
 * reference page lists ({@link MetricsReference}), and the pool and node-class CRDs the karpenter-crd chart installs, trimmed to what validation reads. Trimming keeps the
 * openAPIV3Schema of the storage version and of older versions served beside it, except their descriptions and its
 * status (the controller writes status, the app never does); CRDs, versions and CRD fields the validator does not
 * read are dropped. Each CRD is written as gzipped JSON (it is a quarter of the YAML, and the parser reads JSON
 * fastest). Every file names the tag and commit it was derived from. Re-running for the same tag gives the same bytes.
 *
 * <p>The newest tag given, when no vendored minor is newer, also replaces the Kubernetes support table
 * ({@link KubernetesSupport}) and, where the mirror holds the generated files it is made from, the instance
 * catalogue (CatalogueSource converts upstream's instance types, prices and network limits): both describe more
 * than one release, so the newest serves every minor.
 */
public final class ReleaseVendor {
    /** The kinds the app renders and validates, from its declarations; the chart also installs NodeClaim... */
    static final Set<String> KINDS = declaredKinds();

    static final String REPOSITORY = "aws/karpenter-provider-aws";
    static final String VALUES_PATH = "charts/karpenter/values.yaml";
    /** Where the derived CRD names its source, as an annotation that validation ignores. */
    static final String DERIVED_FROM_ANNOTATION = "karpenter-cdktf.platform.dev/derived-from";

    private static final Pattern TAG = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReleaseVendor() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println(
                    "usage: ReleaseVendor RELEASES_DIR TAG... (the mirror named by " + UpstreamMirror.VARIABLE + ")");
            System.exit(2);
        }
        Optional<UpstreamMirror> mirror;
        try {
            mirror = UpstreamMirror.fromEnvironment(System.getenv());
        } catch (IllegalArgumentException e) {
            mirror = Optional.empty();
            System.err.println("vendor-release: " + e.getMessage());
            System.exit(2);
        }
        if (mirror.isEmpty()) {
            System.err.println("vendor-release: no upstream mirror: " + UpstreamMirror.howToGetOne());
            System.exit(2);
        }
        try {
            vendor(mirror.get(), Path.of(args[0]), List.of(args).subList(1, args.length), System.out);
        } catch (IllegalArgumentException | IllegalStateException e) {
            System.err.println("vendor-release: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Derives each of {@code tags} from {@code mirror} into {@code releases}; the newest tag, when no vendored minor
     * is newer, also the support table and (where the mirror has its sources) the catalogue beside it
     * ({@code releases/..}).
     */
    static void vendor(UpstreamMirror mirror, Path releases, List<String> tags, PrintStream out) throws IOException {
        // Every commit first: an unknown one stops the run before anything is written.
        Map<String, String> commits = new TreeMap<>();
        for (String tag : tags) {
            commits.put(tag, commit(mirror, releases, tag));
        }
        for (String tag : tags) {
            vendor(mirror, releases, tag, commits.get(tag), out);
        }
        String newest =
                tags.stream().max(Comparator.comparing(ReleaseVendor::tagOrder)).orElseThrow();
        if (tagOrder(newest).compareTo(newestVendored(releases)) >= 0) {
            Path release = releases.toAbsolutePath().getParent();
            writeSupportTable(mirror, release, newest, commits.get(newest), out);
            writeCatalogue(mirror, release.resolve("catalog"), newest, commits.get(newest), out);
        }
    }

    /**
     * The commit of {@code tag}: as the mirror's tags file records it, else as the vendored minor of that very tag
     * names it (re-deriving a committed release).
     */
    static String commit(UpstreamMirror mirror, Path releases, String tag) throws IOException {
        UpstreamMirror.Commit recorded = mirror.commits().get(tag);
        if (recorded != null) {
            return recorded.sha();
        }
        Matcher m = tagMatcher(tag);
        Path properties = releases.resolve(m.group(1) + "." + m.group(2)).resolve("release.properties");
        if (Files.isRegularFile(properties)) {
            Properties vendored = new Properties();
            try (InputStream in = Files.newInputStream(properties)) {
                vendored.load(in);
            }
            if (tag.equals(vendored.getProperty("tag"))) {
                return vendored.getProperty("commit");
            }
        }
        throw new IllegalArgumentException("no commit is known for " + tag + ": the mirror's "
                + UpstreamMirror.TAGS_FILE + " does not record it (" + UpstreamMirror.FETCH_COMMAND + " " + tag
                + " writes it)");
    }

    private static Set<String> declaredKinds() {
        SortedSet<String> kinds = new TreeSet<>();
        for (ApiGeneration generation : ApiGeneration.values()) {
            kinds.add(generation.kinds().pool().kind());
            kinds.add(generation.kinds().nodeClass().kind());
        }
        for (AddOnKind kind : AddOnKind.values()) {
            kinds.add(kind.type().kind());
        }
        return Collections.unmodifiableSortedSet(kinds);
    }

    /** The Kubernetes support table from {@code tag}'s matrix, when the mirror holds it. */
    private static void writeSupportTable(UpstreamMirror mirror, Path dir, String tag, String commit, PrintStream log)
            throws IOException {
        Path matrix = mirror.file(tag, SupportMatrix.PATH);
        if (!Files.isRegularFile(matrix)) {
            log.println(tag + ": the mirror has no " + SupportMatrix.PATH + "; the support table is kept");
            return;
        }
        Path out = dir.resolve(KubernetesSupport.RESOURCE);
        Files.writeString(out, supportTable(mirror, tag, commit));
        log.println(tag + " -> " + out.getFileName() + " (" + Files.size(out) + " bytes)");
    }

    /** The support table derived from {@code tag}'s matrix in the mirror. */
    static String supportTable(UpstreamMirror mirror, String tag, String commit) throws IOException {
        try (Reader reader = Files.newBufferedReader(mirror.file(tag, SupportMatrix.PATH))) {
            return KubernetesSupport.table(
                    SupportMatrix.rows(reader),
                    List.of(
                            "Kubernetes minors each Karpenter release supports; derived by libexec/vendor-release",
                            "from " + REPOSITORY + " " + tag + " (commit " + commit + "), " + SupportMatrix.PATH));
        }
    }

    /** The instance catalogue from {@code tag}'s generated files, when the mirror holds them and the commit date. */
    private static void writeCatalogue(UpstreamMirror mirror, Path dir, String tag, String commit, PrintStream log)
            throws IOException {
        UpstreamMirror.Commit recorded = mirror.commits().get(tag);
        List<String> missing = CatalogueSource.FILES.stream()
                .filter(file -> !Files.isRegularFile(mirror.file(tag, file)))
                .toList();
        if (recorded == null || !missing.isEmpty()) {
            log.println(tag + ": the catalogue is kept (the mirror lacks "
                    + (missing.isEmpty()
                            ? "the commit date in " + UpstreamMirror.TAGS_FILE
                            : String.join(", ", missing))
                    + "; " + UpstreamMirror.FETCH_COMMAND + " " + tag + " fetches them)");
            return;
        }
        Map<String, String> files = new TreeMap<>();
        for (String file : CatalogueSource.FILES) {
            files.put(file, Files.readString(mirror.file(tag, file)));
        }
        Files.createDirectories(dir);
        Path out = dir.resolve("instance-types.tsv.gz");
        Files.write(out, CatalogueSource.convert(new CatalogueSource.Provenance(tag, commit, recorded.date()), files));
        log.println(tag + " -> " + out.getFileName() + " (" + Files.size(out) + " bytes)");
    }

    private static Matcher tagMatcher(String tag) {
        Matcher m = TAG.matcher(tag);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a release tag (vMAJOR.MINOR.PATCH): " + tag);
        }
        return m;
    }

    private static String tagOrder(String tag) {
        Matcher m = tagMatcher(tag);
        return String.format(
                "%05d.%05d.%05d",
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    /** The tag of the newest vendored minor, in tagOrder's form. */
    private static String newestVendored(Path releases) throws IOException {
        String newest = "";
        if (!Files.isDirectory(releases)) {
            return newest;
        }
        try (Stream<Path> dirs = Files.list(releases)) {
            for (Path dir : dirs.filter(d -> Files.isRegularFile(d.resolve("release.properties")))
                    .toList()) {
                Matcher tag =
                        Pattern.compile("tag=(\\S+)").matcher(Files.readString(dir.resolve("release.properties")));
                if (tag.find() && tagOrder(tag.group(1)).compareTo(newest) > 0) {
                    newest = tagOrder(tag.group(1));
                }
            }
        }
        return newest;
    }

    /** The derived files of one tag's minor, by name relative to its folder: what {@link #vendor} writes there. */
    static Map<String, byte[]> derive(UpstreamMirror mirror, String tag, String commit) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Reader values = Files.newBufferedReader(mirror.file(tag, VALUES_PATH))) {
            files.put(
                    ChartValuesSchema.FACTS_FILE,
                    ChartValuesSchema.parse(values, tag.replaceFirst("^v", ""))
                            .facts(REPOSITORY, tag, commit, VALUES_PATH));
        }
        Path metricsPage = MetricsReference.pageAt(mirror.root(), tag);
        if (Files.isRegularFile(metricsPage)) {
            files.put(
                    MetricsReference.FILE,
                    MetricsReference.facts(tag, commit, metricsPage).getBytes(StandardCharsets.UTF_8));
        }
        List<String> crds = new ArrayList<>();
        // The CRD chart's templates name the CRDs it installs; their untemplated text is in pkg/apis/crds.
        Path templates = mirror.file(tag, "charts/karpenter-crd/templates");
        List<String> names;
        try (Stream<Path> listed = Files.list(templates)) {
            names = listed.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".yaml"))
                    .sorted()
                    .toList();
        }
        for (String file : names) {
            String source = "pkg/apis/crds/" + file;
            JsonNode crd = YAML.readTree(mirror.file(tag, source).toFile());
            if (!KINDS.contains(crd.at("/spec/names/kind").asText())) {
                continue;
            }
            ObjectNode trimmed = trim(crd);
            ((ObjectNode) trimmed.path("metadata"))
                    .putObject("annotations")
                    .put(DERIVED_FROM_ANNOTATION, REPOSITORY + " " + tag + " " + commit + " " + source);
            String name = file.replaceFirst("\\.yaml$", ".json.gz");
            files.put("crds/" + name, gzip(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(trimmed)));
            crds.add(name);
        }
        if (crds.isEmpty()) {
            throw new IllegalStateException(tag + ": the karpenter-crd chart installs no " + KINDS + " CRD");
        }
        // The app reads the list of CRD files here: a class path folder cannot be listed inside a jar.
        files.put(
                "release.properties",
                ("tag=" + tag + "\ncommit=" + commit + "\ncrds=" + String.join(",", crds) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
        return files;
    }

    private static void vendor(UpstreamMirror mirror, Path releases, String tag, String commit, PrintStream log)
            throws IOException {
        Matcher m = tagMatcher(tag);
        Map<String, byte[]> files = derive(mirror, tag, commit);
        Path dir = releases.resolve(m.group(1) + "." + m.group(2));
        // Facts checked by hand against upstream's code, not derived: they stay (ReleaseMetrics says which).
        Path handChecked = dir.resolve(ReleaseMetrics.CODE_CHECKED);
        byte[] kept = Files.isRegularFile(handChecked) ? Files.readAllBytes(handChecked) : null;
        deleteRecursively(dir);
        if (kept != null) {
            Files.createDirectories(dir);
            Files.write(handChecked, kept);
        }
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path target = dir.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.write(target, file.getValue());
        }
        long crds = files.keySet().stream().filter(f -> f.startsWith("crds/")).count();
        log.println(tag + " -> " + releases.relativize(dir) + " (" + crds + " CRDs, " + size(dir) + " bytes)");
    }

    /** The CRD as validation reads it: group, kind, and each served version's schema without descriptions. */
    static ObjectNode trim(JsonNode crd) {
        ObjectNode out = JSON.createObjectNode();
        out.put("apiVersion", crd.path("apiVersion").asText());
        out.put("kind", crd.path("kind").asText());
        out.putObject("metadata").put("name", crd.at("/metadata/name").asText());
        ObjectNode spec = out.putObject("spec");
        spec.put("group", crd.at("/spec/group").asText());
        spec.set("names", crd.at("/spec/names"));
        spec.put("scope", crd.at("/spec/scope").asText());
        ArrayNode versions = spec.putArray("versions");
        String storage = "";
        for (JsonNode version : crd.at("/spec/versions")) {
            if (version.path("storage").asBoolean()) {
                storage = version.path("name").asText();
            }
        }
        for (JsonNode version : crd.at("/spec/versions")) {
            // The storage version and the older ones served beside it (1.0 still serves v1beta1). Not newer ones: the
            // last 0.33-0.37 patches serve v1 ahead of 1.0 for the migration only, and the app renders v1beta1 there.
            if (!version.path("served").asBoolean()
                    || versionPriority(version.path("name").asText()) > versionPriority(storage)) {
                continue;
            }
            ObjectNode schema =
                    (ObjectNode) version.at("/schema/openAPIV3Schema").deepCopy();
            ((ObjectNode) schema.path("properties")).remove("status");
            stripDescriptions(schema);
            ObjectNode kept = versions.addObject();
            kept.put("name", version.path("name").asText());
            kept.put("served", true);
            kept.put("storage", version.path("storage").asBoolean());
            kept.putObject("schema").set("openAPIV3Schema", schema);
        }
        return out;
    }

    /** Kubernetes' order of API versions: v1 above v1beta2 above v1beta1 above v1alpha5. */
    static int versionPriority(String version) {
        Matcher m = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?").matcher(version);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a Kubernetes API version: " + version);
        }
        int stability = m.group(2) == null ? 2 : m.group(2).equals("beta") ? 1 : 0;
        int minor = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        return Integer.parseInt(m.group(1)) * 10_000 + stability * 1_000 + minor;
    }

    /** Removes the description keyword of a schema and of every schema inside it (not properties named so). */
    private static void stripDescriptions(JsonNode schema) {
        if (!(schema instanceof ObjectNode object)) {
            return;
        }
        object.remove("description");
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            switch (field.getKey()) {
                case "properties", "patternProperties", "definitions" ->
                    field.getValue().forEach(ReleaseVendor::stripDescriptions);
                case "items", "additionalProperties", "not" -> stripDescriptions(field.getValue());
                case "allOf", "anyOf", "oneOf" -> field.getValue().forEach(ReleaseVendor::stripDescriptions);
                default -> {}
            }
        }
    }

    /**
     * {@code releases/README.md} with its table of the vendored tags (minor, tag, commit, bytes), between its markers,
     * made from each minor's release.properties: libexec/write-docs writes it, and ReferenceDocsTest fails while
     * the file differs.
     */
    public static String readmeWithTable(Path releases) throws IOException {
        Map<String, String> rows = new TreeMap<>(Comparator.comparing(ReleaseVendor::minorOrder));
        try (Stream<Path> dirs = Files.list(releases)) {
            for (Path dir : dirs.filter(d -> Files.isRegularFile(d.resolve("release.properties")))
                    .toList()) {
                String upstream = Files.readString(dir.resolve("release.properties"));
                Matcher tag = Pattern.compile("tag=(\\S+)").matcher(upstream);
                Matcher commit = Pattern.compile("commit=(\\S+)").matcher(upstream);
                if (tag.find() && commit.find()) {
                    rows.put(
                            dir.getFileName().toString(),
                            "| " + dir.getFileName() + " | " + tag.group(1) + " | " + commit.group(1) + " | "
                                    + size(dir) + " |");
                }
            }
        }
        Path readme = releases.resolve("README.md");
        String text = Files.readString(readme);
        String begin = "<!-- tags: begin (libexec/write-docs writes this table) -->\n";
        String end = "<!-- tags: end -->";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalStateException(readme + " lacks the markers " + begin.trim() + " and " + end);
        }
        StringBuilder table = new StringBuilder("| Minor | Tag | Commit | Bytes |\n|---|---|---|---|\n");
        rows.values().forEach(row -> table.append(row).append('\n'));
        return text.substring(0, from + begin.length()) + table + text.substring(to);
    }

    private static String minorOrder(String minor) {
        String[] parts = minor.split("\\.");
        return String.format("%05d.%05d", Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    }

    private static byte[] gzip(byte[] content) throws IOException {
        // No file name or time in the gzip header, so the same tag gives the same bytes.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream gzip = new GZIPOutputStream(bytes)) {
            gzip.write(content);
        }
        return bytes.toByteArray();
    }

    private static long size(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
