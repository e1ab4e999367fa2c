package dev.platform.karpenter.synth;

import dev.platform.karpenter.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Runs the thread that drives the jsii kernel and the kernel's main thread on one CPU (Linux, with taskset).
 *
 * <p>The two take turns: every jsii request waits for its answer, a few hundred per cluster. On two CPUs each turn
 * wakes an idle one, and on a virtual machine that wake costs more than most requests: a pipe round trip between two
 * processes took 12 to 46 µs across CPUs and 2.2 µs on one, and 50 clusters synthesized in 2.26 s paired against 2.68 s
 * (docs/contributing/performance.md). Only those two threads are placed. The kernel's garbage collector and
 * compilers, the JVM's compiler and the threads that render documents beside the kernel stay free to use the other
 * CPUs: pinning the whole kernel process to the CPU was slower than not pinning at all.
 *
 * <p>A thread started by a placed thread inherits its CPU, so whatever the synthesizing thread needs beside it is
 * started before {@link Pair#place}. Placing is best effort: without /proc, taskset or a second CPU to use, nothing is
 * placed. {@value #VARIABLE} names the CPU (a machine whose first CPU is busy with other work), or is {@code off}.
 */
final class CpuPairing {
    static final String VARIABLE = "KARPENTER_SYNTH_CPU";
    static final String OFF = "off";
    /** No placing: off, not Linux, one CPU, or a caller that shares its thread and kernel (tests). */
    static final CpuPairing NONE = new CpuPairing(List.of(), OptionalInt.empty());

    private static final Path PROCESS_STATUS = Path.of("/proc/self/status");
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private final List<Integer> allowed;
    private final OptionalInt cpu;

    private CpuPairing(List<Integer> allowed, OptionalInt cpu) {
        this.allowed = List.copyOf(allowed);
        this.cpu = cpu;
    }

    /**
     * The CPU {@value #VARIABLE} names, else the first this process may use; {@link #NONE} when the variable says
     * off or this system has no second CPU to leave to the other threads. A value that is neither is refused.
     */
    static CpuPairing from(Map<String, String> env) {
        String configured = env.getOrDefault(VARIABLE, "").strip();
        if (configured.equals(OFF)) {
            return NONE;
        }
        List<Integer> allowed = allowedCpus();
        Optional<Integer> named = configured.isEmpty() ? Optional.empty() : Optional.of(cpuNumber(configured));
        if (named.isPresent() && (named.get() < 0 || !allowed.isEmpty() && !allowed.contains(named.get()))) {
            throw new BadEnvironment("environment variable " + VARIABLE + " must be " + OFF + " or a CPU this process"
                    + " may use (" + (allowed.isEmpty() ? "a number" : ranges(allowed)) + "), got "
                    + ConfigException.quote(configured));
        }
        if (allowed.size() < 2) {
            return NONE;
        }
        return new CpuPairing(allowed, OptionalInt.of(named.orElse(allowed.get(0))));
    }

    /** A CPU number, or -1 for anything else. */
    private static int cpuNumber(String value) {
        return value.matches("[0-9]{1,5}") ? Integer.parseInt(value) : -1;
    }

    /** The CPU the pair goes to, if any. */
    OptionalInt cpu() {
        return cpu;
    }

    /** {@value #VARIABLE} for the {@code index}-th worker process: the allowed CPUs after this one's, in turn. */
    String forWorker(int index) {
        if (cpu.isEmpty()) {
            return OFF;
        }
        return String.valueOf(allowed.get((allowed.indexOf(cpu.getAsInt()) + index) % allowed.size()));
    }

    /**
     * The calling thread, to be placed with the kernel once it runs: its Linux thread id, read on that thread. Empty
     * when there is nothing to place.
     */
    Optional<Pair> forCurrentThread() {
        if (cpu.isEmpty()) {
            return Optional.empty();
        }
        try {
            // "<pid>/task/<tid>"
            String thread = Files.readSymbolicLink(THREAD_SELF).getFileName().toString();
            return Optional.of(new Pair(cpu.getAsInt(), Long.parseLong(thread)));
        } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** A thread and the CPU it is to share with the kernel. */
    record Pair(int cpu, long threadId) {
        /**
         * Moves this pair's thread and the kernel's main thread (a Linux thread id equals its process id for a
         * process's first thread) to the CPU; returns whether both moved. Failures leave the scheduler to place them.
         */
        boolean place(ProcessHandle kernel) {
            List<Optional<Process>> tasksets = List.of(taskset(kernel.pid()), taskset(threadId));
            boolean placed = true;
            for (Optional<Process> taskset : tasksets) {
                try {
                    placed &= taskset.isPresent() && taskset.get().waitFor() == 0;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return placed;
        }

        private Optional<Process> taskset(long threadId) {
            try {
                return Optional.of(
                        new ProcessBuilder("taskset", "-p", "-c", String.valueOf(cpu), String.valueOf(threadId))
                                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                                .redirectError(ProcessBuilder.Redirect.DISCARD)
                                .start());
            } catch (IOException e) {
                return Optional.empty();
            }
        }
    }

    /**
     * This JVM's jsii kernel among its child processes: the only one that is not a JVM like this one (worker
     * processes are) and has no children of its own (jsii's bundled launcher relays to a kernel it starts, which
     * is not worth placing).
     */
    static Optional<ProcessHandle> kernel(Stream<ProcessHandle> children, Optional<String> javaCommand) {
        List<ProcessHandle> others = children.filter(ProcessHandle::isAlive)
                .filter(child ->
                        javaCommand.isEmpty() || !child.info().command().equals(javaCommand))
                .limit(2)
                .toList();
        if (others.size() != 1 || others.get(0).children().findAny().isPresent()) {
            return Optional.empty();
        }
        return Optional.of(others.get(0));
    }

    /** The CPUs this process may run on, from /proc ("0-3,8"); empty where there is no such file. */
    static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(PROCESS_STATUS)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseList(line.substring(line.indexOf(':') + 1));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a format this does not know: nothing to place
        }
        return List.of();
    }

    /** A Linux CPU list ("0-3,8,10-11") as its CPUs. */
    static List<Integer> parseList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.strip().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            int first = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
            int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1));
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    /** CPUs as a Linux CPU list, the form taskset and /proc use. */
    static String ranges(List<Integer> cpus) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < cpus.size(); ) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            list.append(list.isEmpty() ? "" : ",").append(cpus.get(i));
            if (j > i) {
                list.append('-').append(cpus.get(j));
            }
            i = j + 1;
        }
        return list.toString();
    }
}
