package dev.platform.karpenter.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.nodepools.manifest.ManifestYaml;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.upgrade.UpgradeSteps;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What validation costs, printed as the validating thread's CPU time (no timed assertion: the machine decides the
 * numbers): reading and compiling one
 * minor's schemas, and validating one object once compiled. Run alone for a cold JVM:
 * {@code mvn -B -q test -Dtest=SchemaCostTest}. The first minor also pays the CEL environment and the classes.
 */
@KernelOnlyThroughSynthesized
class SchemaCostTest {
    private static final int ROUNDS = 500;
    /** A CRD with one integer field, to time the JSON schema library on its own. */
    private static final String ONE_FIELD_CRD = resource("one-field-crd.yaml");

    @Test
    void measuresCompilingOneMinorAndValidatingOneObject() {
        KarpenterRelease newest = UpgradeSteps.newestRelease();
        String minor = ReleaseSchemas.minor(newest);

        // The libraries' own start, apart: CEL's environment, and the JSON schema library on a one-field schema.
        long celStart = now();
        KubernetesCel.compile("self == 1");
        long celReady = now();
        CrdSchemas.of(List.of(Json.yaml(ONE_FIELD_CRD))).compileAll();
        long jsonSchemaReady = now();
        long start = now();
        ReleaseSchemas schemas = ReleaseSchemas.load(minor);
        long loaded = now();
        schemas.crds().compileAll();
        long compiled = now();

        ClusterConfig config = TestConfigs.config(newest.chartVersion());
        List<JsonNode> objects = Json.yamlDocuments(ManifestYaml.documents(
                RenderedPools.of(config, "KarpenterNodeRole-demo").objects()));
        JsonNode pool = objects.get(0);
        String apiVersion = pool.path("apiVersion").asText();
        String kind = pool.path("kind").asText();
        long first = now();
        assertThat(schemas.validate(apiVersion, kind, pool)).isEmpty();
        long firstDone = now();
        for (int i = 0; i < ROUNDS; i++) {
            assertThat(schemas.validate(apiVersion, kind, pool)).isEmpty();
        }
        long rounds = now();

        long again = now();
        ReleaseSchemas second = ReleaseSchemas.load(minor);
        second.crds().compileAll();
        long againDone = now();

        System.out.printf(
                "schema cost (CPU time of the validating thread): CEL environment %.1f ms, JSON schema library %.1f ms; Karpenter %s (%s): read %.1f ms, compile %.1f ms (again, CEL programs cached: %.1f ms);"
                        + " validate one %s: first %.2f ms, then %.3f ms each (%d rounds)%n",
                ms(celReady - celStart),
                ms(jsonSchemaReady - celReady),
                minor,
                schemas.upstreamTag(),
                ms(loaded - start),
                ms(compiled - loaded),
                ms(againDone - again),
                kind,
                ms(firstDone - first),
                ms(rounds - firstDone) / ROUNDS,
                ROUNDS);
    }

    /**
     * This thread's CPU time: on a shared machine it moves far less with the other processes than the wall clock
     * (the JIT and collector threads are not counted).
     */
    private static long now() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static String resource(String name) {
        try (InputStream in = SchemaCostTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
