package dev.platform.karpenter.testing.kubernetes;

import dev.platform.karpenter.testing.Mirror;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Upstream's {@code karpenter} and {@code karpenter-crd} charts, read from the upstream mirror
 * ({@link Mirror}: {@code <tag>/charts/<chart>}). One tag per chart family the tests render; adding a family is adding
 * its tag to a list. A test class that uses them is {@link dev.platform.karpenter.testing.NeedsUpstreamMirror}.
 *
 * <p>At a tag, Chart.yaml and the image tag in values.yaml still name the release before it: upstream's release
 * script rewrites those two lines when it publishes the chart.
 */
public final class UpstreamCharts {
    /** One tag per family of each API generation the app renders for. */
    public static final List<String> V1ALPHA5 = List.of("v0.30.0", "v0.31.5");

    public static final List<String> V1BETA1 = List.of("v0.32.10", "v0.37.8");
    public static final List<String> V1 = List.of("v1.0.14", "v1.5.8", "v1.10.2", "v1.14.1");
    /** The newest family: its tag. */
    public static final String NEWEST = V1.get(V1.size() - 1);
    /** Every family the tests render: all of the above. */
    public static final List<String> SUPPORTED = java.util.stream.Stream.of(V1ALPHA5, V1BETA1, V1)
            .flatMap(List::stream)
            .toList();

    public static final String CONTROLLER_CHART = "karpenter";
    public static final String CRD_CHART = "karpenter-crd";

    /** The karpenter-crd chart of each tag as Helm renders it: once per test run, for every test that reads it. */
    private static final java.util.Map<String, List<com.fasterxml.jackson.databind.JsonNode>> CRDS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** CRD validators by tag, built from {@link #crds}. */
    private static final java.util.Map<String, CrdValidator> VALIDATORS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private UpstreamCharts() {}

    /**
     * The CRDs the karpenter-crd chart of {@code tag} installs, rendered by Helm into namespace "karpenter" (on first
     * use); a copy the caller may change.
     */
    public static List<com.fasterxml.jackson.databind.JsonNode> crds(String tag) {
        return CRDS
                .computeIfAbsent(tag, t -> HelmRender.template(chart(t, CRD_CHART), CRD_CHART, "karpenter", ""))
                .stream()
                .<com.fasterxml.jackson.databind.JsonNode>map(com.fasterxml.jackson.databind.JsonNode::deepCopy)
                .toList();
    }

    /** A validator for the custom resources of the release {@code tag}, built from its CRD chart (cached). */
    public static CrdValidator crdValidator(String tag) {
        return VALIDATORS.computeIfAbsent(tag, t -> CrdValidator.of(crds(t)));
    }

    /** The chart folder {@code <tag>/charts/<chart>} of the mirror. */
    public static Path chart(String tag, String chart) {
        Path dir = Mirror.require().file(tag, "charts/" + chart);
        if (!Files.isDirectory(dir)) {
            throw new AssertionError("no chart " + chart + " for " + tag + " in the upstream mirror");
        }
        return dir;
    }

    /** The CRD files the controller chart ships in its {@code crds/} folder (Helm installs them once, unrendered). */
    public static List<Path> controllerChartCrds(String tag) {
        try (Stream<Path> files = Files.list(chart(tag, CONTROLLER_CHART).resolve("crds"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The tag as {@code karpenter_chart_version}: the app corrects the leading "v" to the registry's spelling. */
    public static String chartVersion(String tag) {
        return tag;
    }
}
