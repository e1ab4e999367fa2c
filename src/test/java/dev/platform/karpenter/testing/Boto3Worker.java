package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One long-lived python3 process that runs boto3 snippets for a {@link MotoServer}: a python start with boto3's
 * import costs about a second, which a test paid per assertion. The protocol is one JSON document a line each way
 * (boto3_worker.py); one snippet runs at a time.
 */
final class Boto3Worker implements AutoCloseable {
    private static final ObjectMapper JSON = Json.mapper();
    private static final String SCRIPT = script();

    private final Process process;
    private final Path log;
    private final Writer requests;
    private final BufferedReader answers;
    // Reads answers, so a snippet that hangs fails the test after its timeout instead of blocking it.
    private final ExecutorService reader = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "boto3-worker-reader");
        thread.setDaemon(true);
        return thread;
    });

    private Boto3Worker(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts python3 with {@code environment} added; its diagnostics go to {@code log}. */
    static Boto3Worker start(Map<String, String> environment, Path log) {
        ProcessBuilder builder = new ProcessBuilder("python3", "-c", SCRIPT).redirectError(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("AWS_"));
        builder.environment().putAll(environment);
        try {
            return new Boto3Worker(builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start python3 for boto3", e);
        }
    }

    /** Runs {@code snippet} (seeing {@code args}, {@code emit}, {@code json} and {@code boto3}) and returns what it printed. */
    synchronized String run(String snippet, List<String> args, Duration timeout) {
        try {
            requests.write(JSON.writeValueAsString(Map.of("code", snippet, "args", args)));
            requests.write('\n');
            requests.flush();
            Future<String> line = reader.submit(answers::readLine);
            String answer = line.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (answer == null) {
                throw new IllegalStateException("the boto3 worker exited\n" + Processes.tail(log));
            }
            JsonNode parsed = JSON.readTree(answer);
            if (parsed.has("error")) {
                throw new IllegalStateException("boto3 snippet failed:\n" + snippet + "\n"
                        + parsed.path("error").asText());
            }
            return parsed.path("output").asText();
        } catch (IOException e) {
            throw new UncheckedIOException("the boto3 worker is gone\n" + Processes.tail(log), e);
        } catch (TimeoutException e) {
            close();
            throw new IllegalStateException("boto3 snippet did not finish within " + timeout + ":\n" + snippet, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the boto3 worker's answer", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        reader.shutdownNow();
        Processes.stop(process);
    }

    private static String script() {
        try (InputStream in = Boto3Worker.class.getResourceAsStream("boto3_worker.py")) {
            if (in == null) {
                throw new IllegalStateException("boto3_worker.py is not on the test class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
