package dev.platform.karpenter.testing.kubernetes;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The upstream {@code karpenter} and {@code karpenter-crd} charts kept in {@code src/test/resources/charts/<tag>/}
 * (copied unchanged from github.com/aws/karpenter-provider-aws, see that folder's README). One tag per chart family
 * the tests render; adding a family is adding its tag to a list (and its folder).
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

    /** The chart folder {@code charts/<tag>/<chart>} on the test class path. */
    public static Path chart(String tag, String chart) {
        Path dir = root().resolve(tag).resolve(chart);
        if (!Files.isDirectory(dir)) {
            throw new AssertionError("no chart " + chart + " for " + tag + " in " + root());
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

    private static Path root() {
        URL url = UpstreamCharts.class.getResource("/charts/LICENSE");
        if (url == null) {
            throw new AssertionError("charts/ is not on the test class path");
        }
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
