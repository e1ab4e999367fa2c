package dev.platform.karpenter.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One Terraform command in a stack directory against moto, whatever its exit code, with its output kept: for the
 * checks that a plan or apply is refused with a given message ({@link TerraformRunner} fails on a non-zero exit).
 */
public final class TerraformCommand {
    /** A command's exit code and its output (stdout and stderr). */
    public record Result(int exitCode, String output) {
        /** The output with Terraform's box drawing and line wrapping removed, for matching messages. */
        public String oneLine() {
            return TerraformCommand.oneLine(output);
        }
    }

    /** Terraform's output with its box drawing and line wrapping removed, for matching messages. */
    static String oneLine(String output) {
        return output.replaceAll("[│╷╵]", " ").replaceAll("\\s+", " ");
    }

    private TerraformCommand() {}

    /**
     * Runs {@code terraform args} in {@code stackDir} against {@code moto}, logging to terraform-logs/{@code
     * logPrefix}-...; {@code environment} may point more clients elsewhere (e.g. {@link AutoModeStub#pointAt}).
     */
    public static Result run(
            Path stackDir,
            MotoServer moto,
            String logPrefix,
            Consumer<Map<String, String>> environment,
            String... args) {
        List<String> command = new ArrayList<>(List.of("terraform"));
        command.addAll(List.of(args));
        try {
            Path log = Files.createDirectories(IntegrationEnvironment.buildDir().resolve("terraform-logs"))
                    .resolve(logPrefix + "-" + stackDir.getFileName() + "-" + args[0] + "-" + System.nanoTime()
                            + ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(stackDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            TerraformRunner.pointAtMoto(builder.environment(), moto);
            environment.accept(builder.environment());
            int exitCode = Processes.run(builder, TerraformRunner.COMMAND_TIMEOUT, log);
            return new Result(exitCode, Files.readString(log, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
