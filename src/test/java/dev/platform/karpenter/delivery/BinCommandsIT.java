package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.IntegrationTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * bin/ holds what users run, each answering --help with its usage and exit status 0; what the commands use
 * themselves (the app's launcher, the jsii kernel, the docs and release tools) is in libexec/.
 */
@IntegrationTest
class BinCommandsIT {
    static Stream<String> commands() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("bin"))) {
            return files.map(file -> file.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("commands")
    void answersHelpWithItsUsage(String command) throws IOException, InterruptedException {
        Path file = Path.of("bin", command);
        assertThat(Files.isExecutable(file)).as(file + " is executable").isTrue();
        assertThat(Files.readString(file))
                .as(file + " is no internal that scripts source")
                .doesNotStartWith("# Sourced");
        Process process = new ProcessBuilder(file.toString(), "--help")
                .redirectErrorStream(true)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        // The cdktf CLI prints its own help, without the word "usage"; every other command starts with its usage.
        assertThat(out)
                .as(command + " --help")
                .contains(command.equals("cdktf") ? "cdktf deploy" : "usage: bin/" + command);
    }
}
