package dev.platform.karpenter.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.release.KarpenterRelease;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * The schemas of one supported minor, read from the facts shipped with the app ({@code release/releases/MAJOR.MINOR/},
 * see its README), derived from that minor's newest patch: its CRDs without descriptions, and its chart values
 * ({@link ChartValuesSchema}). A release is only ever judged by its own minor's facts; they are read on first use and
 * kept for the process (every cluster on that minor shares them). Thread-safe.
 */
public final class ReleaseSchemas {
    /** Where the shipped files are on the class path. */
    static final String ROOT = "/dev/platform/karpenter/release/releases/";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, ReleaseSchemas> BY_MINOR = new ConcurrentHashMap<>();

    private final String minor;
    private final String upstreamTag;
    private final CrdSchemas crds;

    private ReleaseSchemas(String minor, String upstreamTag, CrdSchemas crds) {
        this.minor = minor;
        this.upstreamTag = upstreamTag;
        this.crds = crds;
    }

    /**
     * The schemas of {@code release}'s minor, loaded on the first call for that minor.
     *
     * @throws IllegalStateException when the app ships no files for that minor (a release constant without its
     *     vendored files: libexec/vendor-release adds them)
     */
    public static ReleaseSchemas of(KarpenterRelease release) {
        return BY_MINOR.computeIfAbsent(minor(release), ReleaseSchemas::load);
    }

    /** The upstream tag the files come from: the minor's newest patch when they were vendored ("v1.10.2"). */
    public String upstreamTag() {
        return upstreamTag;
    }

    /** The CRDs of this minor: what they serve, their schemas, defaulting. */
    public CrdSchemas crds() {
        return crds;
    }

    /** See {@link CrdSchemas#validate(String, String, JsonNode)}: {@code object} is the whole resource. */
    public List<Violation> validate(String apiVersion, String kind, JsonNode object) {
        return crds.validate(apiVersion, kind, object);
    }

    /** The same, for an object as plain maps, lists and scalars (as read from HCL or built in code). */
    public List<Violation> validate(String apiVersion, String kind, Map<String, ?> object) {
        return crds.validate(apiVersion, kind, JSON.valueToTree(object));
    }

    /**
     * Validates {@code spec} as the {@code .spec} of a {@code kind} named {@code name}; the violations' paths are
     * relative to the spec ({@code disruption.budgets[0].nodes}), or empty for a rule on the whole object.
     */
    public List<Violation> validateSpec(String apiVersion, String kind, String name, JsonNode spec) {
        var object = JSON.createObjectNode();
        object.putObject("metadata").put("name", name);
        object.set("spec", spec);
        List<Violation> relative = new ArrayList<>();
        for (Violation v : validate(apiVersion, kind, object)) {
            String path = v.path().equals("spec") ? "" : v.path().replaceFirst("^spec(\\.|(?=\\[))", "");
            relative.add(new Violation(path, v.message()));
        }
        return List.copyOf(relative);
    }

    @Override
    public String toString() {
        return "schemas of Karpenter " + minor + ".x (" + upstreamTag + ")";
    }

    static String minor(KarpenterRelease release) {
        return release.major() + "." + release.minor();
    }

    /** Reads the files of {@code minor} ("1.10"), uncached (of() caches). */
    static ReleaseSchemas load(String minor) {
        Properties release = releaseProperties(minor);
        List<JsonNode> crds = new ArrayList<>();
        for (String file : release.getProperty("crds", "").split(",")) {
            try (InputStream in = new GZIPInputStream(resource(minor, "crds/" + file))) {
                crds.add(JSON.readTree(in));
            } catch (IOException e) {
                throw new UncheckedIOException("reading " + ROOT + minor + "/crds/" + file, e);
            }
        }
        return new ReleaseSchemas(minor, release.getProperty("tag"), CrdSchemas.of(crds));
    }

    /** The minor's release.properties (its upstream tag and CRD files), without reading the CRDs. */
    static Properties releaseProperties(String minor) {
        Properties release = new Properties();
        try (InputStream in = ReleaseSchemas.class.getResourceAsStream(ROOT + minor + "/release.properties")) {
            if (in == null) {
                throw new IllegalStateException(
                        "no schemas ship with the app for Karpenter " + minor + ".x (class path " + ROOT + minor
                                + "/ is missing; libexec/vendor-release adds a release's files)");
            }
            release.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return release;
    }

    /** One of the minor's shipped files. */
    static InputStream resource(String minor, String file) {
        InputStream in = ReleaseSchemas.class.getResourceAsStream(ROOT + minor + "/" + file);
        if (in == null) {
            throw new IllegalStateException("the shipped files of Karpenter " + minor + ".x lack " + file);
        }
        return in;
    }
}
