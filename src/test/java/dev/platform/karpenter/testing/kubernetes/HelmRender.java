package dev.platform.karpenter.testing.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import dev.platform.karpenter.testing.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A chart rendered by real Helm 3 (helm-java: Helm's Go library through a native library, no binary, cluster or
 * network), as {@code helm template} would, parsed into one tree per object. Rendering takes about half a second:
 * render once per test class. One Helm call at a time in this JVM (test classes run two at a time, see
 * {@link dev.platform.karpenter.testing.KernelLock}), so nothing relies on the native library being reentrant.
 */
public final class HelmRender {
    private HelmRender() {}

    /** {@code helm template <release> <chartDir> --namespace <namespace> -f <values>}: the objects, in order. */
    public static List<JsonNode> template(Path chartDir, String release, String namespace, String valuesYaml) {
        return parse(templateText(chartDir, release, namespace, valuesYaml));
    }

    /** The rendered text, as Helm printed it. */
    public static synchronized String templateText(Path chartDir, String release, String namespace, String valuesYaml) {
        Path values = writeValues(valuesYaml);
        try {
            return new Helm(chartDir)
                    .template()
                    .withName(release)
                    .withNamespace(namespace)
                    .withValuesFile(values)
                    .call();
        } finally {
            delete(values);
        }
    }

    /** {@code helm lint --strict <chartDir>}: the chart's own files and default values. */
    public static synchronized LintResult lint(Path chartDir) {
        return new Helm(chartDir).lint().strict().call();
    }

    /** Every YAML document of a multi-document text, empty documents (Helm prints some) left out. */
    public static List<JsonNode> parse(String yaml) {
        return Json.yamlDocuments(yaml).stream()
                .filter(document ->
                        document != null && !document.isNull() && !document.isMissingNode() && !document.isEmpty())
                .toList();
    }

    /** The single object of a kind and name. */
    public static JsonNode find(List<JsonNode> objects, String kind, String name) {
        List<JsonNode> matches = objects.stream()
                .filter(o -> o.path("kind").asText().equals(kind)
                        && o.path("metadata").path("name").asText().equals(name))
                .toList();
        if (matches.size() != 1) {
            throw new AssertionError("expected one " + kind + " " + name + ", found " + matches.size() + " among "
                    + objects.stream().map(HelmRender::describe).toList());
        }
        return matches.get(0);
    }

    /** Objects of a kind. */
    public static List<JsonNode> ofKind(List<JsonNode> objects, String kind) {
        return objects.stream()
                .filter(o -> o.path("kind").asText().equals(kind))
                .toList();
    }

    /** "Kind name", for messages. */
    public static String describe(JsonNode object) {
        return object.path("kind").asText() + " "
                + object.path("metadata").path("name").asText();
    }

    private static Path writeValues(String valuesYaml) {
        try {
            Path values = Files.createTempFile("helm-values-", ".yaml");
            Files.writeString(values, valuesYaml);
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
