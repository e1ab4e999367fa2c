package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Placing the synthesizing thread and the kernel on one CPU, with the real taskset on real threads and processes. */
class CpuPairingTest {
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopProcesses() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void readsAndWritesLinuxCpuLists() {
        assertThat(CpuPairing.parseList("0-3,8,10-11\n")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(CpuPairing.ranges(List.of(0, 1, 2, 3, 8, 10, 11))).isEqualTo("0-3,8,10-11");
        assertThat(CpuPairing.ranges(List.of(5))).isEqualTo("5");
    }

    @Test
    void offPlacesNothingAndNeitherDoTheWorkers() {
        CpuPairing off = CpuPairing.from(Map.of(CpuPairing.VARIABLE, "off"));

        assertThat(off.cpu()).isEmpty();
        assertThat(off.forCurrentThread()).isEmpty();
        assertThat(off.forWorker(1)).isEqualTo("off");
    }

    @Test
    void aCpuThisProcessMayNotUseIsRefusedInOneLine() {
        List<Integer> allowed = linuxCpus();

        for (String bad : List.of("first", "-1", "1.5", String.valueOf(allowed.get(allowed.size() - 1) + 1))) {
            assertThatThrownBy(() -> CpuPairing.from(Map.of(CpuPairing.VARIABLE, bad)))
                    .as(bad)
                    .isInstanceOf(BadEnvironment.class)
                    .hasMessage("environment variable KARPENTER_SYNTH_CPU must be off or a CPU this process may use ("
                            + CpuPairing.ranges(allowed) + "), got \"" + bad + "\"");
        }
    }

    @Test
    void theFirstAllowedCpuByDefaultAndWorkersOnTheNextOnesInTurn() {
        List<Integer> allowed = twoOrMoreCpus();

        CpuPairing pairing = CpuPairing.from(Map.of());

        assertThat(pairing.cpu()).hasValue(allowed.get(0));
        assertThat(pairing.forWorker(1)).isEqualTo(String.valueOf(allowed.get(1)));
        assertThat(pairing.forWorker(allowed.size())).isEqualTo(String.valueOf(allowed.get(0)));
        int last = allowed.get(allowed.size() - 1);
        CpuPairing named = CpuPairing.from(Map.of(CpuPairing.VARIABLE, String.valueOf(last)));
        assertThat(named.cpu()).hasValue(last);
        assertThat(named.forWorker(1)).isEqualTo(String.valueOf(allowed.get(0)));
    }

    @Test
    void placesTheThreadAndTheKernelsMainThreadAndNothingElse() throws Exception {
        List<Integer> allowed = twoOrMoreCpus();
        assumeTrue(onPath("taskset"), "taskset is not installed");
        int cpu = allowed.get(allowed.size() - 1);
        Process kernel = start("sleep", "60");
        String before = cpusOf(Path.of("/proc/thread-self"));

        // On a thread of its own: a placed thread stays placed, and a pool's thread would serve other tests.
        CompletableFuture<List<String>> seen = new CompletableFuture<>();
        Thread synthesizing = new Thread(() -> {
            try {
                CpuPairing.Pair pair = CpuPairing.from(Map.of(CpuPairing.VARIABLE, String.valueOf(cpu)))
                        .forCurrentThread()
                        .orElseThrow();
                boolean placed = pair.place(kernel.toHandle());
                // A thread started by a placed thread inherits its CPU: why the synthesis starts its threads for
                // work beside the kernel before placing.
                CompletableFuture<String> child = new CompletableFuture<>();
                new Thread(() -> child.complete(cpusOf(Path.of("/proc/thread-self")))).start();
                seen.complete(List.of(String.valueOf(placed), cpusOf(Path.of("/proc/thread-self")), child.join()));
            } catch (RuntimeException e) {
                seen.completeExceptionally(e);
            }
        });
        synthesizing.start();

        assertThat(seen.get()).containsExactly("true", String.valueOf(cpu), String.valueOf(cpu));
        assertThat(cpusOf(Path.of("/proc", String.valueOf(kernel.pid())))).isEqualTo(String.valueOf(cpu));
        assertThat(cpusOf(Path.of("/proc/thread-self")))
                .as("the test's own thread")
                .isEqualTo(before);
    }

    @Test
    void theKernelIsTheOnlyChildThatIsNeitherAJvmNorALauncher() throws IOException {
        ProcessHandle kernel = start("sleep", "60").toHandle();
        ProcessHandle other = start("sleep", "60").toHandle();
        ProcessHandle launcher = start("sh", "-c", "sleep 60 & wait").toHandle();
        Optional<String> java = Optional.of("/opt/jdk/bin/java");
        awaitChild(launcher);

        assertThat(CpuPairing.kernel(Stream.of(kernel), java)).contains(kernel);
        assertThat(CpuPairing.kernel(Stream.of(kernel, other), java))
                .as("which one?")
                .isEmpty();
        assertThat(CpuPairing.kernel(Stream.of(kernel), kernel.info().command()))
                .as("a worker JVM")
                .isEmpty();
        assertThat(CpuPairing.kernel(Stream.of(launcher), java))
                .as("a launcher")
                .isEmpty();
        assertThat(CpuPairing.kernel(Stream.empty(), java)).isEmpty();
    }

    private Process start(String... command) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        started.add(process);
        return process;
    }

    private static void awaitChild(ProcessHandle process) {
        for (int i = 0; i < 200 && process.children().findAny().isEmpty(); i++) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static List<Integer> linuxCpus() {
        List<Integer> allowed = CpuPairing.allowedCpus();
        assumeTrue(!allowed.isEmpty(), "not Linux");
        return allowed;
    }

    private static List<Integer> twoOrMoreCpus() {
        List<Integer> allowed = linuxCpus();
        assumeTrue(allowed.size() >= 2, "one CPU: nothing to place");
        return allowed;
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv("PATH").split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }

    /** The Cpus_allowed_list of a /proc process or thread directory. */
    private static String cpusOf(Path procEntry) {
        try {
            return Files.readAllLines(procEntry.resolve("status")).stream()
                    .filter(line -> line.startsWith("Cpus_allowed_list:"))
                    .map(line -> line.substring(line.indexOf(':') + 1).strip())
                    .findFirst()
                    .orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
