package dev.platform.karpenter.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * PromQL read by the Prometheus project's own grammar, {@code @prometheus-io/lezer-promql} (the parser of Prometheus's
 * web UI), from the pinned Node tooling in bindings/: all expressions in one Node.js start.
 */
public final class PromQl {
    private static final Path LIBRARY = Path.of("bindings/node_modules/@prometheus-io/lezer-promql");

    /** One expression as the grammar reads it: where it fails to parse (empty when it parses), and its metrics. */
    public record Parsed(String expression, List<String> errors, List<String> metrics) {}

    private PromQl() {}

    /** Parses every expression. */
    public static List<Parsed> parse(List<String> expressions) {
        assertThat(LIBRARY.resolve("package.json"))
                .as("the pinned Node tooling (bindings/install) has lezer-promql")
                .exists();
        try {
            Path input = Files.createTempFile("promql", ".json");
            try {
                Files.writeString(input, Json.mapper().writeValueAsString(expressions));
                Process process = new ProcessBuilder(
                                "node", "-e", """
                                const fs = require("fs");
                                const [library, input] = process.argv.slice(1);
                                const { parser } = require(library);
                                const result = JSON.parse(fs.readFileSync(input, "utf8")).map(expression => {
                                  const errors = [];
                                  const metrics = [];
                                  parser.parse(expression).iterate({
                                    enter(node) {
                                      if (node.type.isError) {
                                        errors.push("at " + node.from + ": " + JSON.stringify(expression.slice(node.from, node.to + 10)));
                                      }
                                      if (node.name === "Identifier" && node.node.parent && node.node.parent.name === "VectorSelector") {
                                        metrics.push(expression.slice(node.from, node.to));
                                      }
                                    }
                                  });
                                  return { expression, errors, metrics };
                                });
                                console.log(JSON.stringify(result));
                                """, LIBRARY.toAbsolutePath().toString(), input.toString())
                        .redirectErrorStream(true)
                        .start();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(process.exitValue()).as(output).isZero();
                List<Parsed> parsed = new ArrayList<>();
                for (JsonNode node : Json.parse(output)) {
                    parsed.add(new Parsed(
                            node.path("expression").asText(),
                            Json.texts(node.path("errors")),
                            Json.texts(node.path("metrics"))));
                }
                return parsed;
            } finally {
                Files.deleteIfExists(input);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
