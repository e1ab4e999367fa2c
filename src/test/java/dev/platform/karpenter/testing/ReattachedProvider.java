package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One hashicorp/aws provider process from the mirror, started in its debug mode and reused by every Terraform command
 * of one stack ({@code TF_REATTACH_PROVIDERS}). Terraform otherwise starts the provider two or three times per
 * command (schemas, validation, the walk), and each start of the 700 MB binary costs seconds of CPU: most of an
 * integration test's time. Terraform configures the provider anew (ConfigureProvider) for every command, so a
 * command sees exactly the configuration it would with a fresh process; what is reused is the loaded binary.
 * Terraform reaches it through a {@link TrimmedSchemaProxy}, which spares Terraform decoding the schemas of the
 * 2,100-odd types no stack uses.
 *
 * <p>The provider reads the AWS endpoint and credentials from its own environment, so a process serves one moto
 * server ({@link MotoServer#provider}), and one stack: Terraform commands must not share a process at once.
 */
final class ReattachedProvider implements AutoCloseable {
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);
    private static final Pattern REATTACH = Pattern.compile("TF_REATTACH_PROVIDERS='(\\{.*})'");

    private static final ObjectMapper JSON = Json.mapper();

    private final Process process;
    /** Null where {@link TrimmedSchemaProxy#isAvailable()} is not: Terraform then talks to the provider itself. */
    private final TrimmedSchemaProxy proxy;
    /** TF_REATTACH_PROVIDERS: the provider's own value, its address replaced by the proxy's where there is one. */
    private final String reattach;

    private ReattachedProvider(Process process, String printedReattach) {
        this.process = process;
        if (!TrimmedSchemaProxy.isAvailable()) {
            this.proxy = null;
            this.reattach = printedReattach;
            return;
        }
        ObjectNode providers;
        ObjectNode address;
        try {
            providers = (ObjectNode) JSON.readTree(printedReattach);
            address = (ObjectNode) providers.elements().next().path("Addr");
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the provider's reattach configuration: " + printedReattach, e);
        }
        this.proxy = TrimmedSchemaProxy.start(address.path("String").asText());
        address.put("Network", "tcp").put("String", proxy.address());
        this.reattach = providers.toString();
    }

    /** Starts the mirror's hashicorp/aws {@code version} with {@code environment}; its output goes to {@code log}. */
    static ReattachedProvider start(String version, Map<String, String> environment, Path log) {
        Path binary = IntegrationEnvironment.pluginMirror()
                .resolve("registry.terraform.io/hashicorp/aws/" + version + "/linux_amd64/terraform-provider-aws_v"
                        + version + "_x5");
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("no hashicorp/aws " + version + " in the provider mirror: " + binary);
        }
        ProcessBuilder builder = new ProcessBuilder(binary.toString(), "-debug")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("AWS_") || name.startsWith("TF_"));
        builder.environment().putAll(environment);
        // In debug mode the SDK logs every RPC and schema walk at trace level (40 MB for one walk, and its CPU); the
        // provider's own lines (its configuration, AWS requests) stay.
        builder.environment().put("TF_LOG_SDK", "off");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary, e);
        }
        try {
            return new ReattachedProvider(process, awaitReattachConfig(process, log));
        } catch (RuntimeException | Error e) {
            process.destroyForcibly();
            throw e;
        }
    }

    /**
     * The value of {@code TF_REATTACH_PROVIDERS} that points Terraform at this process, through a proxy whose schema
     * offers {@code types} only.
     */
    String reattach(TrimmedSchemaProxy.Types types) {
        if (!process.isAlive()) {
            throw new IllegalStateException("the reattached provider exited with " + process.exitValue());
        }
        if (proxy != null) {
            proxy.serve(types);
        }
        return reattach;
    }

    /** The provider prints where it listens once it serves: {@code TF_REATTACH_PROVIDERS='{...}'}. */
    private static String awaitReattachConfig(Process process, Path log) {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            Matcher printed = REATTACH.matcher(Processes.tail(log));
            if (printed.find()) {
                return printed.group(1);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the provider exited with " + process.exitValue() + "\n" + Processes.tail(log));
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException(
                "the provider did not start within " + STARTUP_TIMEOUT + "\n" + Processes.tail(log));
    }

    @Override
    public void close() {
        if (proxy != null) {
            proxy.close();
        }
        Processes.stop(process);
    }
}
