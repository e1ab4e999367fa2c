package dev.platform.karpenter.synth;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.hashicorp.cdktf.App;
import dev.platform.karpenter.KarpenterApp;
import dev.platform.karpenter.config.ClusterConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * A worker process of {@link Synthesis}: synthesizes some clusters into a directory of its own. Started by
 * {@link Main} with {@value #ARGUMENT}, the output directory and the project directory as seen from a stack; it
 * boots its JVM and, while its kernel starts, reads the clusters' validated configurations, as JSON, from its
 * standard input: it never reads the tfvars files, so what it builds is what the parent validated.
 *
 * <p>Its standard input stays open for as long as the parent lives: at end of input, whatever it is doing, the
 * worker stops at once (and its kernel, reading from it, with it), so a killed parent leaves no worker behind.
 */
final class SynthesisWorker {
    static final String ARGUMENT = "--synthesis-worker";
    /** Exit status when the parent went away: nothing to report to anyone. */
    static final int EXIT_ORPHANED = 3;
    /** The configuration records as their components, nothing derived (e.g. {@code isV1()}) and no getters. */
    private static final ObjectMapper CONFIGS = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE)
            .build();

    private static final TypeReference<List<ClusterConfig>> CLUSTERS = new TypeReference<>() {};

    private SynthesisWorker() {}

    /** Arguments: {@value #ARGUMENT} OUTDIR STATE_DIR_FROM_STACK. */
    static int run(String[] args, InputStream parent) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: " + ARGUMENT + " OUTDIR STATE_DIR_FROM_STACK (clusters as JSON on stdin)");
            return Main.EXIT_BAD_INPUT;
        }
        Path outdir = Path.of(args[1]);
        ExecutorService beside = Synthesis.besideKernel();
        // The kernel starts while the parent validates and sends the configurations. No other thread uses jsii
        // until this one has joined it.
        CompletableFuture<App> app = CompletableFuture.supplyAsync(() -> KarpenterApp.newApp(outdir));
        List<ClusterConfig> clusters;
        try {
            clusters = read(parent);
        } catch (IOException e) {
            return EXIT_ORPHANED;
        }
        Thread lifeline = new Thread(
                () -> {
                    try {
                        while (parent.read() >= 0) {
                            // the parent writes nothing more; end of input means it is gone
                        }
                    } catch (IOException e) {
                        // the same
                    }
                    Runtime.getRuntime().halt(EXIT_ORPHANED);
                },
                "parent-lifeline");
        lifeline.setDaemon(true);
        lifeline.start();
        KarpenterApp.synthesize(app.join(), outdir, clusters, args[2], beside);
        return 0;
    }

    /** Sends a worker its clusters, keeping the stream open. */
    static void send(List<ClusterConfig> clusters, OutputStream worker) throws IOException {
        CONFIGS.writerFor(CLUSTERS)
                .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                .writeValue(worker, clusters);
        worker.flush();
    }

    static List<ClusterConfig> read(InputStream in) throws IOException {
        List<ClusterConfig> clusters = CONFIGS.readerFor(CLUSTERS).readValue(CONFIGS.createParser(in));
        if (clusters == null) {
            throw new IOException("no clusters");
        }
        return clusters;
    }
}
