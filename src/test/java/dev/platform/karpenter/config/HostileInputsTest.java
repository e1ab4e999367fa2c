package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every hostile input of {@link HostileInputs}, per class, is refused with one clean line (exit 2 material: one line,
 * at most 300 characters, naming the file and the setting or line, no Java class names); every valid one is read.
 */
@KernelOnlyThroughSynthesized
class HostileInputsTest {
    private static final ExecutorService READER = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r);
        thread.setDaemon(true);
        return thread;
    });

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return HostileInputs.cases().stream().map(c -> Arguments.of(c.kind(), c.title(), c));
    }

    @ParameterizedTest(name = "[{0}] {1}")
    @MethodSource("cases")
    void isRefusedWithOneCleanLineOrReadWhenValid(String kind, String title, HostileInputs.Case input)
            throws Exception {
        HostileInputs.Result result = HostileInputs.run(input, dir, READER);

        assertThat(result.outcome()).as(result.message()).isEqualTo(HostileInputs.Outcome.CLEAN);
    }

    @AfterAll
    static void stopReader() {
        READER.shutdownNow();
    }
}
