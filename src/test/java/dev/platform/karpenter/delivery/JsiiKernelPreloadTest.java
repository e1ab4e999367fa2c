package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * libexec/jsii-kernel.js, preloaded into Node.js as libexec/jsii-kernel does: what the kernel writes to fd 3 reaches stdout
 * (the JVM's end of the protocol), console output of JavaScript code goes to stderr in the form jsii's Java runtime
 * decodes, and only the stack traces cdktf records on plain objects are left unformatted.
 */
@KernelOnlyThroughSynthesized
class JsiiKernelPreloadTest {
    private static final ObjectMapper JSON = Json.mapper();

    @Test
    void protocolGoesToStdoutAndConsoleOutputToStderrAsTheRuntimeExpects() throws Exception {
        Result result = runNode("""
                const fs = require('fs');
                console.log('from console.log');
                fs.writeSync(3, '{"ok":1}\\n');
                console.error('from console.error');
                process.stdout.write('from process.stdout');
                """);

        assertThat(result.stdout()).isEqualTo("{\"ok\":1}\n");
        List<String> consoleLines = new ArrayList<>();
        for (String line : result.stderr().lines().toList()) {
            JsonNode message = JSON.readTree(line);
            String stream = message.fieldNames().next();
            consoleLines.add(stream + ": "
                    + new String(Base64.getDecoder().decode(message.path(stream).asText()), StandardCharsets.UTF_8)
                            .strip());
        }
        assertThat(consoleLines)
                .containsExactly(
                        "stdout: from console.log", "stderr: from console.error", "stdout: from process.stdout");
    }

    @Test
    void errorsKeepTheirStackTracesWhileTraceRecordsOnPlainObjectsStayEmpty() throws Exception {
        Result result = runNode("""
                const record = { stack: '' };
                Error.captureStackTrace(record);
                let error;
                try { null.property; } catch (e) { error = e; }
                require('fs').writeSync(3, JSON.stringify({ record: record.stack, error: error.stack }) + '\\n');
                """);

        JsonNode traces = JSON.readTree(result.stdout());
        assertThat(traces.path("record").asText()).isEmpty();
        assertThat(traces.path("error").asText())
                .startsWith("TypeError: Cannot read properties of null")
                .contains("\n    at ");
    }

    private record Result(String stdout, String stderr) {}

    private static Result runNode(String script) throws IOException, InterruptedException {
        Process node = new ProcessBuilder("node", "--require", "./libexec/jsii-kernel.js", "-e", script).start();
        node.getOutputStream().close();
        assertThat(node.waitFor(5, TimeUnit.MINUTES)).as("node finished").isTrue();
        String stdout = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(node.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.exitValue()).as(stderr).isZero();
        return new Result(stdout, stderr);
    }
}
