package dev.platform.karpenter.upstream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.platform.karpenter.catalog.CatalogueSource;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.ApiGeneration;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
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
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Copies what the app validates against from one upstream Karpenter release tag into
 * src/main/resources/dev/platform/karpenter/release/releases/MAJOR.MINOR/ (libexec/vendor-release runs it and says
 * how): the controller chart's values.yaml unchanged, and the pool and node-class CRDs the karpenter-crd chart
 * installs, trimmed to what validation reads. Trimming keeps the openAPIV3Schema of the storage version and of older
 * versions served beside it, except their descriptions and its status (the controller writes status, the app never does); CRDs, versions and CRD fields the
 * validator does not read are dropped. Each CRD is written as gzipped JSON (it is a quarter of the YAML, and the
 * parser reads JSON fastest). Re-running for the same tag gives the same bytes.
 *
 * <p>The newest tag given, when no vendored minor is newer, also replaces the instance catalogue (CatalogueSource
 * converts upstream's instance types, prices and network limits): it describes EC2, not the release, so the newest
 * serves every minor.
 */
public final class ReleaseVendor {
    /** The kinds the app renders and validates, from its declarations; the chart also installs NodeClaim... */
    static final Set<String> KINDS = declaredKinds();

    private static final Pattern TAG = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReleaseVendor() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: ReleaseVendor UPSTREAM_GIT_DIR RELEASES_DIR TAG...");
            System.exit(2);
        }
        vendor(Path.of(args[0]), Path.of(args[1]), List.of(args).subList(2, args.length), System.out);
    }

    /**
     * Vendors each of {@code tags} from the git directory {@code repo} into {@code releases}; the newest tag, when
     * no vendored minor is newer, also into the catalogue beside it ({@code releases/../catalog}).
     */
    static void vendor(Path repo, Path releases, List<String> tags, PrintStream out) throws IOException {
        for (String tag : tags) {
            vendor(repo, releases, tag, out);
        }
        String newest =
                tags.stream().max(Comparator.comparing(ReleaseVendor::tagOrder)).orElseThrow();
        if (tagOrder(newest).compareTo(newestVendored(releases)) >= 0) {
            writeCatalogue(repo, releases.toAbsolutePath().getParent().resolve("catalog"), newest, out);
        }
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

    /** The instance catalogue from {@code tag}'s generated files, with upstream's licence beside it. */
    private static void writeCatalogue(Path repo, Path dir, String tag, PrintStream log) throws IOException {
        String commit = new String(git(repo, "rev-parse", tag + "^{commit}"), StandardCharsets.UTF_8).trim();
        String date = new String(git(repo, "log", "-1", "--format=%cI", commit), StandardCharsets.UTF_8).trim();
        Map<String, String> files = new TreeMap<>();
        for (String file : CatalogueSource.FILES) {
            files.put(file, new String(git(repo, "show", commit + ":" + file), StandardCharsets.UTF_8));
        }
        Files.createDirectories(dir);
        Path out = dir.resolve("instance-types.tsv.gz");
        Files.write(out, CatalogueSource.convert(new CatalogueSource.Provenance(tag, commit, date), files));
        Files.write(dir.resolve("LICENSE"), git(repo, "show", commit + ":LICENSE"));
        log.println(tag + " -> " + out.getFileName() + " (" + Files.size(out) + " bytes)");
    }

    private static String tagOrder(String tag) {
        Matcher m = TAG.matcher(tag);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a release tag (vMAJOR.MINOR.PATCH): " + tag);
        }
        return String.format(
                "%05d.%05d.%05d",
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    /** The tag of the newest vendored minor, in tagOrder's form. */
    private static String newestVendored(Path releases) throws IOException {
        String newest = "";
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

    private static void vendor(Path repo, Path releases, String tag, PrintStream log) throws IOException {
        Matcher m = TAG.matcher(tag);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a release tag (vMAJOR.MINOR.PATCH): " + tag);
        }
        String commit = new String(git(repo, "rev-parse", tag + "^{commit}"), StandardCharsets.UTF_8).trim();
        Path dir = releases.resolve(m.group(1) + "." + m.group(2));
        deleteRecursively(dir);
        Files.createDirectories(dir.resolve("crds"));
        Files.write(dir.resolve("values.yaml"), git(repo, "show", commit + ":charts/karpenter/values.yaml"));
        List<String> crds = new ArrayList<>();
        // The CRD chart's templates name the CRDs it installs; their untemplated text is in pkg/apis/crds.
        for (String line : lines(git(repo, "ls-tree", "--name-only", commit, "charts/karpenter-crd/templates/"))) {
            String file = Path.of(line).getFileName().toString();
            if (!file.endsWith(".yaml")) {
                continue;
            }
            JsonNode crd = YAML.readTree(git(repo, "show", commit + ":pkg/apis/crds/" + file));
            if (!KINDS.contains(crd.at("/spec/names/kind").asText())) {
                continue;
            }
            String name = file.replaceFirst("\\.yaml$", ".json.gz");
            writeGzip(
                    dir.resolve("crds").resolve(name),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(trim(crd)));
            crds.add(name);
        }
        if (crds.isEmpty()) {
            throw new IllegalStateException(tag + ": the karpenter-crd chart installs no " + KINDS + " CRD");
        }
        // The app reads the list of CRD files here: a class path folder cannot be listed inside a jar.
        Files.writeString(
                dir.resolve("release.properties"),
                "tag=" + tag + "\ncommit=" + commit + "\ncrds=" + String.join(",", crds) + "\n");
        log.println(tag + " -> " + releases.relativize(dir) + " (" + crds.size() + " CRDs, " + size(dir) + " bytes)");
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

    private static void writeGzip(Path file, byte[] content) throws IOException {
        // No file name or time in the gzip header, so the same tag gives the same bytes.
        try (OutputStream gzip = new GZIPOutputStream(Files.newOutputStream(file))) {
            gzip.write(content);
        }
    }

    private static byte[] git(Path repo, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "--git-dir=" + repo));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = process.getInputStream()) {
            in.transferTo(out);
        }
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException("failed: " + String.join(" ", command));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    private static List<String> lines(byte[] text) {
        return new String(text, StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
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
