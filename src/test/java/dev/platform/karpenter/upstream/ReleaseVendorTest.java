package dev.platform.karpenter.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.catalog.CatalogueSource;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.testing.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ReleaseVendor on a small upstream mirror with one tag: it derives the CRDs of the kinds the app declares and no
 * others, trimmed, the chart's values as facts without comments, the support table and the instance catalogue, each
 * naming the tag and commit; a rerun writes the same bytes.
 */
class ReleaseVendorTest {
    private static final String TAG = "v1.99.0";
    private static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

    @TempDir
    Path dir;

    private Path repo;
    private Path releases;

    @BeforeEach
    void upstream() throws Exception {
        repo = dir.resolve("mirror").resolve(TAG);
        write("LICENSE", "Apache License 2.0 (test stand-in)\n");
        write(
                "charts/karpenter/values.yaml",
                "settings:\n  featureGates:\n    # -- upstream's prose\n    nodeOverlay: false\n");
        write(
                "hack/docs/compatibilitymatrix_gen/compatibility.yaml",
                "name: karpenter\ncompatibility:\n  - appVersion: 1.99.x\n    minK8sVersion: 1.30\n"
                        + "    maxK8sVersion: 1.36\n");
        for (String[] crd : List.of(
                new String[] {"karpenter.sh_nodepools.yaml", "karpenter.sh", "NodePool"},
                new String[] {"karpenter.k8s.aws_ec2nodeclasses.yaml", "karpenter.k8s.aws", "EC2NodeClass"},
                new String[] {"karpenter.sh_nodeoverlays.yaml", "karpenter.sh", "NodeOverlay"},
                new String[] {"karpenter.sh_nodeclaims.yaml", "karpenter.sh", "NodeClaim"})) {
            write("charts/karpenter-crd/templates/" + crd[0], "# templated\n");
            write("pkg/apis/crds/" + crd[0], crd(crd[1], crd[2]));
        }
        for (String file : CatalogueSource.FILES) {
            String fixture =
                    "/dev/platform/karpenter/catalog/upstream/" + Path.of(file).getFileName() + ".txt";
            try (InputStream in = ReleaseVendorTest.class.getResourceAsStream(fixture)) {
                write(file, new String(Objects.requireNonNull(in, fixture).readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        Files.writeString(
                dir.resolve("mirror").resolve(UpstreamMirror.TAGS_FILE),
                TAG + "\t" + COMMIT + "\t2026-07-06T14:20:29Z\n");
        releases = Files.createDirectories(dir.resolve("resources/release/releases"));
    }

    @Test
    void vendorsTheDeclaredKindsTrimmedAndARerunWritesTheSameBytes() throws Exception {
        Map<String, byte[]> first = vendorAndRead();
        Map<String, byte[]> second = vendorAndRead();

        assertThat(second.keySet()).isEqualTo(first.keySet());
        first.forEach((file, bytes) -> assertThat(second.get(file)).as(file).isEqualTo(bytes));
        assertThat(first.keySet())
                .containsExactlyInAnyOrder(
                        "release/releases/1.99/chart-values.json",
                        "release/releases/1.99/release.properties",
                        "release/releases/1.99/crds/karpenter.sh_nodepools.json.gz",
                        "release/releases/1.99/crds/karpenter.k8s.aws_ec2nodeclasses.json.gz",
                        "release/releases/1.99/crds/karpenter.sh_nodeoverlays.json.gz",
                        "release/kubernetes-support.tsv",
                        "release/catalog/instance-types.tsv.gz");
        assertThat(new String(first.get("release/releases/1.99/chart-values.json"), StandardCharsets.UTF_8))
                .isEqualTo("{\"derivedFrom\": {\"repository\":\"aws/karpenter-provider-aws\",\"tag\":\"v1.99.0\","
                        + "\"commit\":\"" + COMMIT + "\",\"path\":\"charts/karpenter/values.yaml\"},\n"
                        + "\"values\": [\n"
                        + "{\"path\":[\"settings\",\"featureGates\",\"nodeOverlay\"],\"kind\":\"BOOLEAN\",\"default\":\"false\"}\n"
                        + "]}\n");
        assertThat(new String(first.get("release/releases/1.99/release.properties"), StandardCharsets.UTF_8))
                .isEqualTo("tag=" + TAG + "\ncommit=" + COMMIT + "\ncrds=karpenter.k8s.aws_ec2nodeclasses.json.gz,"
                        + "karpenter.sh_nodeoverlays.json.gz,karpenter.sh_nodepools.json.gz\n");
        assertThat(new String(first.get("release/kubernetes-support.tsv"), StandardCharsets.UTF_8))
                .contains("from aws/karpenter-provider-aws " + TAG + " (commit " + COMMIT + ")")
                .endsWith("karpenter\tkubernetes_min\tkubernetes_max\n1.99.x\t1.30\t1.36\n");

        JsonNode pool =
                Json.mapper().readTree(gunzip(first.get("release/releases/1.99/crds/karpenter.sh_nodepools.json.gz")));
        assertThat(pool.at("/spec/names/kind").asText()).isEqualTo("NodePool");
        assertThat(pool.at("/spec/versions").size())
                .as("the unserved version is dropped")
                .isEqualTo(1);
        assertThat(pool.at("/metadata/annotations").toString())
                .contains(TAG + " " + COMMIT + " pkg/apis/crds/karpenter.sh_nodepools.yaml");
        JsonNode schema = pool.at("/spec/versions/0/schema/openAPIV3Schema");
        assertThat(schema.toString()).as("no description keyword (a string)").doesNotContain("\"description\":\"");
        assertThat(schema.at("/properties/status").isMissingNode()).isTrue();
        assertThat(schema.at("/properties/spec/properties/weight/maximum").asInt())
                .isEqualTo(100);
        assertThat(schema.at("/properties/spec/properties/description/type").asText())
                .as("a property named description stays")
                .isEqualTo("string");
        assertThat(new String(gunzip(first.get("release/catalog/instance-types.tsv.gz")), StandardCharsets.UTF_8))
                .contains(TAG)
                .contains(COMMIT);
    }

    @Test
    void aTagWithoutAKnownCommitIsRefusedBeforeAnythingIsWritten() throws IOException {
        Files.delete(dir.resolve("mirror").resolve(UpstreamMirror.TAGS_FILE));

        assertThatThrownBy(() -> ReleaseVendor.vendor(
                        UpstreamMirror.at(dir.resolve("mirror")), releases, List.of(TAG), System.out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no commit is known for " + TAG + ": the mirror's tags.tsv does not record it"
                        + " (libexec/fetch-upstream " + TAG + " writes it)");
        try (Stream<Path> written = Files.list(releases)) {
            assertThat(written).isEmpty();
        }
    }

    @Test
    void aCommittedReleaseIsReDerivedWithTheCommitItNames() throws IOException {
        vendorAndRead();
        Files.delete(dir.resolve("mirror").resolve(UpstreamMirror.TAGS_FILE));

        assertThat(ReleaseVendor.commit(UpstreamMirror.at(dir.resolve("mirror")), releases, TAG))
                .isEqualTo(COMMIT);
    }

    @Test
    void theKindsAreTheAppsOwnDeclarations() {
        assertThat(ReleaseVendor.KINDS)
                .contains(
                        ApiGeneration.V1ALPHA5.kinds().pool().kind(),
                        ApiGeneration.V1.kinds().nodeClass().kind())
                .contains(AddOnKind.values().stream()
                        .map(kind -> kind.type().kind())
                        .toArray(String[]::new))
                .doesNotContain("NodeClaim");
    }

    private Map<String, byte[]> vendorAndRead() throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ReleaseVendor.vendor(
                UpstreamMirror.at(dir.resolve("mirror")),
                releases,
                List.of(TAG),
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertThat(log.toString(StandardCharsets.UTF_8)).contains(TAG + " -> 1.99 (3 CRDs");
        Map<String, byte[]> files = new TreeMap<>();
        Path root = releases.getParent().getParent();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static String crd(String group, String kind) {
        String plural = kind.toLowerCase() + "s";
        return """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: %s.%s}
                spec:
                  names: {kind: %s, plural: %s}
                  group: %s
                  scope: Cluster
                  versions:
                  - {name: v1alpha1, served: false, storage: false, schema: {openAPIV3Schema: {type: object}}}
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        description: the whole object
                        type: object
                        properties:
                          spec:
                            description: the spec
                            type: object
                            properties:
                              weight: {description: a weight, type: integer, maximum: 100}
                              description: {type: string}
                          status: {type: object}
                """.formatted(plural, group, kind, plural, group);
    }

    private void write(String file, String text) throws IOException {
        Path path = repo.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }

    private static byte[] gunzip(byte[] bytes) throws IOException {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        }
    }
}
