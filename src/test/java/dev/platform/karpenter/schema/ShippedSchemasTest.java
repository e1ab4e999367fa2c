package dev.platform.karpenter.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.nodepools.manifest.ManifestYaml;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every supported minor ships its schemas: what the app renders for it is valid against them, a wrong object of each
 * kind is refused naming the field, and the shipped CRDs are upstream's own, trimmed only of what validation does not
 * read.
 */
@KernelOnlyThroughSynthesized
class ShippedSchemasTest {
    private static final String EXTRA_POOL =
            "node_pools = [{ name = \"batch\", capacity_types = [\"on-demand\"], cpu_limit = 4 }]";

    /** One known-bad change per kind, and the violation path it must be refused at. */
    private record Wrong(String path, Consumer<ObjectNode> change) {}

    private static final Map<String, List<Wrong>> WRONG = Map.of(
            "Provisioner",
            List.of(
                    new Wrong("spec.weight", o -> spec(o).put("weight", 101)),
                    new Wrong("spec.ttlSecondsAfterEmty", o -> spec(o).put("ttlSecondsAfterEmty", 30))),
            "AWSNodeTemplate",
            List.of(
                    new Wrong("spec.amiFamily", o -> spec(o).put("amiFamily", 3)),
                    new Wrong("spec.subnetSelectors", o -> spec(o).putObject("subnetSelectors"))),
            "NodePool",
            List.of(
                    new Wrong("spec.weight", o -> spec(o).put("weight", 101)),
                    new Wrong(
                            "spec.template.spec.requirements[0].key",
                            o -> ((ObjectNode) o.at("/spec/template/spec/requirements/0"))
                                    .put("key", "karpenter.sh/custom"))),
            "EC2NodeClass",
            List.of(
                    new Wrong(
                            "spec.metadataOptions.httpPutResponseHopLimit",
                            o -> spec(o).putObject("metadataOptions").put("httpPutResponseHopLimit", 65)),
                    new Wrong("spec.userdata", o -> spec(o).put("userdata", "#!/bin/sh"))));

    /** Every supported minor of the release table, at its newest patch. */
    static Stream<KarpenterRelease> minors() {
        return KarpenterMinor.all().stream().map(KarpenterMinor::newestRelease);
    }

    @ParameterizedTest(name = "Karpenter {0}")
    @MethodSource("minors")
    void eachMinorShipsTheFilesOfTheNewestPatchTheReleaseTableNames(KarpenterRelease newest) {
        assertThat(ReleaseSchemas.of(newest).upstreamTag())
                .isEqualTo("v" + newest.major() + "." + newest.minor() + "." + newest.patch());
    }

    @ParameterizedTest(name = "Karpenter {0}")
    @MethodSource("minors")
    void whatTheAppRendersIsValidAndAWrongObjectOfEachKindIsRefusedNamingTheField(KarpenterRelease release) {
        ReleaseSchemas schemas = ReleaseSchemas.of(release);
        List<String> kinds = new ArrayList<>();
        for (ClusterConfig config : configs(release)) {
            List<JsonNode> objects = Json.yamlDocuments(ManifestYaml.documents(
                    RenderedPools.of(config, "KarpenterNodeRole-demo").objects()));
            for (JsonNode object : objects) {
                String apiVersion = object.path("apiVersion").asText();
                String kind = object.path("kind").asText();
                kinds.add(kind);
                String what = release + " " + apiVersion + " " + kind + " "
                        + object.at("/metadata/name").asText();
                assertThat(schemas.validate(apiVersion, kind, object)).as(what).isEmpty();
                for (Wrong wrong : WRONG.get(kind)) {
                    ObjectNode bad = object.deepCopy();
                    wrong.change().accept(bad);
                    assertThat(schemas.validate(apiVersion, kind, bad))
                            .as(what + " with a wrong " + wrong.path())
                            .isNotEmpty()
                            .allSatisfy(v -> assertThat(v.path()).isEqualTo(wrong.path()))
                            .allSatisfy(
                                    v -> assertThat(v.message()).isNotBlank().doesNotContain("\n"));
                }
            }
        }
        assertThat(kinds).as("the app renders a pool and a node class").hasSizeGreaterThanOrEqualTo(3);
    }

    @ParameterizedTest(name = "Karpenter {0}")
    @MethodSource("minors")
    void noShippedRuleNeedsTheStoredObject(KarpenterRelease release) {
        // The validator skips transition rules, as a create does; a rule with optionalOldSelf would run on create with
        // oldSelf absent, which it does not implement.
        CrdSchemas crds = ReleaseSchemas.of(release).crds();
        for (String served : crds.servedKinds()) {
            String[] apiVersionAndKind = served.split(" ");
            assertThat(crds.schema(apiVersionAndKind[0], apiVersionAndKind[1]).findValues("optionalOldSelf"))
                    .as(served)
                    .isEmpty();
        }
    }

    /** The default configuration with a second pool, and where the release serves two generations, both ways. */
    private static List<ClusterConfig> configs(KarpenterRelease release) {
        String version = release.chartVersion();
        List<ClusterConfig> configs = new ArrayList<>(List.of(TestConfigs.config(version, EXTRA_POOL)));
        DeclaredApis retiring = DeclaredApis.retiring(release);
        if (retiring.servesTwoGenerations()) {
            configs.add(TestConfigs.config(
                    version,
                    EXTRA_POOL,
                    "retired_api = \""
                            + DeclaredApis.spelling(retiring.retired().orElseThrow()) + "\""));
        }
        return configs;
    }

    static Stream<String> upstreamChartTags() {
        return UpstreamCharts.SUPPORTED.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("upstreamChartTags")
    @NeedsUpstreamMirror
    void theShippedSchemasAreThoseTheUpstreamCrdChartInstallsWithoutDescriptionsAndStatus(String tag) {
        ReleaseSchemas shipped = ReleaseSchemas.of(KarpenterRelease.of(tag));
        assertThat(shipped.upstreamTag()).isEqualTo(tag);
        CrdSchemas upstream = CrdSchemas.of(UpstreamCharts.crds(tag));
        assertThat(upstream.servedKinds()).containsAll(shipped.crds().servedKinds());
        for (String served : shipped.crds().servedKinds()) {
            String[] apiVersionAndKind = served.split(" ");
            JsonNode expected =
                    upstream.schema(apiVersionAndKind[0], apiVersionAndKind[1]).deepCopy();
            ((ObjectNode) expected.path("properties")).remove("status");
            withoutDescriptions(expected);
            assertThat(shipped.crds().schema(apiVersionAndKind[0], apiVersionAndKind[1]))
                    .as(served)
                    .isEqualTo(expected);
        }
    }

    /** Every description of a schema and its nested schemas (not properties that happen to be called so). */
    private static void withoutDescriptions(JsonNode schema) {
        if (schema instanceof ObjectNode object) {
            object.remove("description");
            object.path("properties").forEach(ShippedSchemasTest::withoutDescriptions);
            withoutDescriptions(object.path("items"));
            withoutDescriptions(object.path("additionalProperties"));
            for (String all : List.of("allOf", "anyOf", "oneOf")) {
                object.path(all).forEach(ShippedSchemasTest::withoutDescriptions);
            }
        }
    }

    private static ObjectNode spec(ObjectNode object) {
        return (ObjectNode) object.path("spec");
    }
}
