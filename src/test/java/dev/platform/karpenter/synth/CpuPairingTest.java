package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
        CpuPairing off = CpuPairing.from(Map.of(CpuPairing.VARIABLE, "off"), System.out);

        assertThat(off.forCurrentThread(false)).isEmpty();
        assertThat(off.forWorker(1)).isEqualTo("off");
    }

    @Test
    void aCpuThisProcessMayNotUseIsRefusedInOneLine() {
        List<Integer> allowed = linuxCpus();

        for (String bad : List.of("first", "-1", "1.5", String.valueOf(allowed.get(allowed.size() - 1) + 1))) {
            assertThatThrownBy(() -> CpuPairing.from(Map.of(CpuPairing.VARIABLE, bad), System.out))
                    .as(bad)
                    .isInstanceOf(BadEnvironment.class)
                    .hasMessage("environment variable KARPENTER_SYNTH_CPU must be off or a CPU this process may use ("
                            + CpuPairing.ranges(allowed) + "), got \"" + bad + "\"");
        }
    }

    @Test
    void workersTakeTheNextCpusInTurnAndNoneBeyondThem() {
        List<Integer> allowed = twoOrMoreCpus();

        CpuPairing automatic = CpuPairing.from(Map.of(), System.out);
        assertThat(automatic.forWorker(1)).isEqualTo(String.valueOf(allowed.get(1)));
        assertThat(automatic.forWorker(allowed.size()))
                .as("a pair per CPU at most")
                .isEqualTo("off");

        int last = allowed.get(allowed.size() - 1);
        CpuPairing named = CpuPairing.from(Map.of(CpuPairing.VARIABLE, String.valueOf(last)), System.out);
        assertThat(named.forWorker(1)).isEqualTo(String.valueOf(allowed.get(0)));
    }

    @Test
    void placesTheThreadAndTheKernelsMainThreadThenReleasesTheThread() throws Exception {
        List<Integer> allowed = placeableCpus();
        String cpu = String.valueOf(allowed.get(allowed.size() - 1));
        Process kernel = start("sleep", "60");
        String before = cpusOf(Path.of("/proc/thread-self"));

        List<String> seen = onOwnThread(() -> {
            CpuPairing.Pair pair = CpuPairing.from(Map.of(CpuPairing.VARIABLE, cpu), System.out)
                    .forCurrentThread(false)
                    .orElseThrow();
            boolean placed = pair.place(kernel.toHandle());
            String placedCpus = cpusOf(Path.of("/proc/thread-self"));
            // Read at once: an idle pair is soon let go, as a crowded one would be.
            String kernelCpus = cpusOf(Path.of("/proc", String.valueOf(kernel.pid())));
            // A thread started by a placed thread inherits its CPU: why the synthesis starts its threads for work
            // beside the kernel before placing.
            CompletableFuture<String> child = new CompletableFuture<>();
            new Thread(() -> child.complete(cpusOf(Path.of("/proc/thread-self")))).start();
            String childCpus = child.join();
            pair.release();
            return List.of(
                    String.valueOf(placed), placedCpus, kernelCpus, childCpus, cpusOf(Path.of("/proc/thread-self")));
        });

        assertThat(seen).containsExactly("true", cpu, cpu, cpu, CpuPairing.ranges(allowed));
        assertThat(cpusOf(Path.of("/proc/thread-self")))
                .as("the test's own thread")
                .isEqualTo(before);
    }

    @Test
    void withNoCpuNamedBothGoToOneCpuOfTheirChoosing() throws Exception {
        List<Integer> allowed = placeableCpus();
        Process kernel = start("sleep", "60");

        List<String> cpus = onOwnThread(() -> {
            CpuPairing.Pair pair = CpuPairing.from(Map.of(), System.out)
                    .forCurrentThread(false)
                    .orElseThrow();
            pair.place(kernel.toHandle());
            return List.of(
                    cpusOf(Path.of("/proc/thread-self")), cpusOf(Path.of("/proc", String.valueOf(kernel.pid()))));
        });

        assertThat(cpus.get(0))
                .isEqualTo(cpus.get(1))
                .isIn(allowed.stream().map(String::valueOf).toList());
    }

    @Test
    void aNamedCpuTheKernelCannotTakeIsReportedAndTheThreadKeepsEveryCpu() throws Exception {
        List<Integer> allowed = placeableCpus();
        Process gone = start("true");
        gone.waitFor();
        ByteArrayOutputStream notices = new ByteArrayOutputStream();

        List<String> seen = onOwnThread(() -> {
            CpuPairing.Pair pair = CpuPairing.from(
                            Map.of(CpuPairing.VARIABLE, String.valueOf(allowed.get(0))),
                            new PrintStream(notices, true, StandardCharsets.UTF_8))
                    .forCurrentThread(false)
                    .orElseThrow();
            return List.of(String.valueOf(pair.place(gone.toHandle())), cpusOf(Path.of("/proc/thread-self")));
        });

        assertThat(seen).containsExactly("false", CpuPairing.ranges(allowed));
        assertThat(notices.toString(StandardCharsets.UTF_8))
                .isEqualTo("karpenter-cdktf: KARPENTER_SYNTH_CPU=" + allowed.get(0)
                        + " not applied (taskset failed or is not installed); synthesizing without it\n");
    }

    /**
     * A pair takes turns, so beside a process held to its CPU it gets about half of it: the watch lets it go. Here
     * the "kernel" sleeps and the thread spins, as one side of a pair at a time does.
     */
    @Test
    void aPairCrowdedOnItsCpuGetsEveryCpuBack() throws Exception {
        List<Integer> allowed = placeableCpus();
        String cpu = String.valueOf(allowed.get(allowed.size() - 1));
        start("taskset", "-c", cpu, "sh", "-c", "while :; do :; done");
        Process kernel = start("sleep", "60");

        List<String> seen = onOwnThread(() -> {
            CpuPairing.Pair pair = CpuPairing.from(Map.of(CpuPairing.VARIABLE, cpu), System.out)
                    .forCurrentThread(false)
                    .orElseThrow();
            boolean placed = pair.place(kernel.toHandle());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pair.placed() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            return List.of(String.valueOf(placed), String.valueOf(pair.placed()), cpusOf(Path.of("/proc/thread-self")));
        });

        assertThat(seen).containsExactly("true", "false", CpuPairing.ranges(allowed));
        assertThat(cpusOf(Path.of("/proc", String.valueOf(kernel.pid())))).isEqualTo(CpuPairing.ranges(allowed));
    }

    @Test
    void theKernelIsTheProcessJsiiStartedOrTheOnlyChildOfAShellAndNeverARelay() throws Exception {
        ProcessHandle direct = start("sleep", "60").toHandle();
        // A compound command keeps the shell, with the command as its only child.
        ProcessHandle shell = start("sh", "-c", "sleep 60; true").toHandle();
        ProcessHandle twoChildren =
                start("sh", "-c", "sleep 60 & sleep 60; wait").toHandle();
        ProcessHandle relay = start(
                        "node",
                        "-e",
                        "require('child_process').spawn('sleep', ['60']);" + " setTimeout(() => {}, 60000)")
                .toHandle();
        awaitChildren(shell, 1);
        awaitChildren(twoChildren, 2);
        awaitChildren(relay, 1);

        assertThat(CpuPairing.kernel(direct)).contains(direct);
        assertThat(CpuPairing.kernel(shell)).isEqualTo(shell.children().findFirst());
        assertThat(CpuPairing.kernel(twoChildren)).isEmpty();
        assertThat(CpuPairing.kernel(relay)).as("jsii's bundled launcher").isEmpty();
    }

    private Process start(String... command) throws IOException {
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        started.add(process);
        return process;
    }

    private static void awaitChildren(ProcessHandle process, int count) throws InterruptedException {
        for (int i = 0; i < 500 && process.children().count() < count; i++) {
            Thread.sleep(10);
        }
        assertThat(process.children().count())
                .as("children of %s", process.pid())
                .isEqualTo(count);
    }

    /**
     * Runs {@code work} on a thread of its own and returns its result: a placed thread stays placed, and a pool's
     * thread would serve other tests.
     */
    private static <T> T onOwnThread(Supplier<T> work) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(work.get());
            } catch (RuntimeException | AssertionError e) {
                result.completeExceptionally(e);
            }
        });
        thread.start();
        return result.get();
    }

    private static List<Integer> linuxCpus() {
        List<Integer> allowed = CpuPairing.allowedCpus();
        assumeTrue(!allowed.isEmpty(), "not Linux");
        return allowed;
    }

    /** The CPUs this process may use, where CpuPairing places anything (the IT's precondition too). */
    static List<Integer> placeableCpus() {
        List<Integer> allowed = twoOrMoreCpus();
        assumeTrue(onPath("taskset"), "taskset is not installed");
        return allowed;
    }

    private static List<Integer> twoOrMoreCpus() {
        List<Integer> allowed = linuxCpus();
        assumeTrue(
                allowed.size() >= 2 && Runtime.getRuntime().availableProcessors() >= 2,
                "one CPU or a one-processor quota: nothing to place");
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
