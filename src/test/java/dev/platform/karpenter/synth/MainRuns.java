package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs of {@link Main} as libexec/app makes them, for the tests that synthesize a whole project. */
final class MainRuns {
    private MainRuns() {}

    /**
     * Runs Main in {@code project} on the tfvars at {@code tfvars} into {@code outdir}, with {@code environment} and
     * this process's PATH (the jsii kernel needs node), and asserts it succeeds; a failure shows its stderr.
     */
    static void succeed(Path project, String tfvars, String outdir, Map<String, String> environment) {
        Map<String, String> withPath = new HashMap<>(environment);
        withPath.put("KARPENTER_TFVARS", tfvars);
        withPath.put("KARPENTER_OUTDIR", outdir);
        withPath.put("PATH", System.getenv("PATH"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Main.run(project, withPath, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));

        assertThat(status).as(err.toString()).isZero();
    }

    /**
     * Main as a process of its own in {@code project}, with the JVM options libexec/app gives it (C1 only, the serial
     * collector; its workers inherit them) and {@code jvmOptions}; its output discarded, its errors shown.
     */
    static ProcessBuilder asProcess(Path project, String... jvmOptions) {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        return new ProcessBuilder(command)
                .directory(project.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
    }
}
