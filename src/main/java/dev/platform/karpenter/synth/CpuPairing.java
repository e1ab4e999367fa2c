package dev.platform.karpenter.synth;

import dev.platform.karpenter.config.ConfigException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Runs the thread that drives the jsii kernel and the kernel's main thread on one CPU (Linux, with taskset).
 *
 * <p>The two take turns: every jsii request waits for its answer, about 140 per cluster. On two CPUs each turn wakes
 * an idle one, and on a virtual machine that wake costs more than most requests: a pipe round trip between two
 * processes took 12 to 46 µs across CPUs and 2.2 µs on one, and 50 clusters synthesized in 2.26 s paired against
 * 2.68 s (docs/contributing/performance.md). Only those two threads move. The kernel's garbage collector and
 * compilers, the JVM's compiler and the threads that work beside the kernel keep every CPU: pinning the whole kernel
 * process to the CPU was slower than not pinning at all.
 *
 * <p>A thread inherits the CPUs of the thread that starts it, so what the synthesizing thread needs beside it starts
 * before {@link Pair#place} and the thread gets every CPU back after the synthesis ({@link Pair#release}). The CPU is
 * the one the kernel last ran on (the scheduler's choice), or with worker processes the first this process may use
 * and the next ones for the workers. A pair cannot leave its CPU, so it is watched: crowded there (another synth's
 * pair on the same CPU, a process held to it), both threads get every CPU back. {@value #VARIABLE} names the CPU
 * instead, or is {@code off}. Nothing moves without taskset, /proc or two processors, or when the kernel is not a
 * process of its own (jsii's bundled launcher relays to a second one).
 */
final class CpuPairing {
    static final String VARIABLE = "KARPENTER_SYNTH_CPU";
    static final String OFF = "off";
    /** No placing: off, not Linux, one processor, or a caller that shares its thread and kernel (tests). */
    static final CpuPairing NONE = new CpuPairing(List.of(), OptionalInt.empty(), null);

    private static final Path PROCESS_STATUS = Path.of("/proc/self/status");
    /**
     * The share of its CPU below which a pair counts as crowded, and is let go. Alone, a pair ran 70 to 97 % of the
     * time in quarter-second windows; beside another synth's pair or a process held to that CPU, 30 to 49 %.
     */
    static final double CROWDED_SHARE = 0.55;
    /** How often the watch looks: a crowded pair loses at most this much before it is let go. */
    static final long WATCH_MILLIS = 250;

    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    /** The CPUs this process may use; none for {@link #NONE}. */
    private final List<Integer> allowed;

    private final OptionalInt named;
    private final PrintStream notices;

    private CpuPairing(List<Integer> allowed, OptionalInt named, PrintStream notices) {
        this.allowed = List.copyOf(allowed);
        this.named = named;
        this.notices = notices;
    }

    /**
     * What {@value #VARIABLE} asks for: a CPU, {@code off}, or (unset or empty) the kernel's CPU. {@link #NONE} when
     * off or when this system has no second processor to leave to the other threads. A value that is neither is
     * refused. {@code notices} hears of a named CPU that could not be used.
     */
    static CpuPairing from(Map<String, String> env, PrintStream notices) {
        String configured = env.getOrDefault(VARIABLE, "").strip();
        if (configured.equals(OFF)) {
            return NONE;
        }
        List<Integer> allowed = allowedCpus();
        OptionalInt named = OptionalInt.empty();
        if (!configured.isEmpty()) {
            int cpu = configured.matches("[0-9]{1,5}") ? Integer.parseInt(configured) : -1;
            if (cpu < 0 || !allowed.isEmpty() && !allowed.contains(cpu)) {
                throw new BadEnvironment("environment variable " + VARIABLE + " must be " + OFF + " or a CPU this"
                        + " process may use (" + (allowed.isEmpty() ? "a number" : ranges(allowed)) + "), got "
                        + ConfigException.quote(configured));
            }
            named = OptionalInt.of(cpu);
        }
        // availableProcessors also counts a container's CPU quota, which the allowed list does not show.
        if (allowed.size() < 2 || Runtime.getRuntime().availableProcessors() < 2) {
            return NONE;
        }
        return new CpuPairing(allowed, named, notices);
    }

    /**
     * {@value #VARIABLE} for the {@code index}-th worker process: the allowed CPUs after this process's, in turn, and
     * {@code off} for workers beyond them (two pairs on one CPU would only take turns).
     */
    String forWorker(int index) {
        if (allowed.isEmpty()) {
            return OFF;
        }
        int first = named.isPresent() ? allowed.indexOf(named.getAsInt()) : 0;
        return index < allowed.size() ? String.valueOf(allowed.get((first + index) % allowed.size())) : OFF;
    }

    /**
     * The calling thread, to be placed with the kernel once it runs: its Linux thread id, read on that thread. With
     * {@code workers}, on the first allowed CPU unless one is named. Empty when nothing is to be placed.
     */
    Optional<Pair> forCurrentThread(boolean workers) {
        if (allowed.isEmpty()) {
            return Optional.empty();
        }
        try {
            // "<pid>/task/<tid>"
            long thread = Long.parseLong(
                    Files.readSymbolicLink(THREAD_SELF).getFileName().toString());
            OptionalInt cpu = named.isPresent() || !workers ? named : OptionalInt.of(allowed.get(0));
            return Optional.of(new Pair(thread, cpu, allowed, named.isPresent() ? notices : null));
        } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * A thread to share a CPU with the kernel: {@code cpu}, or the one the kernel last ran on. {@code notices}, if any,
     * hears when the CPU could not be used.
     */
    static final class Pair {
        private final long threadId;
        private final OptionalInt cpu;
        private final List<Integer> allowed;
        private final PrintStream notices;
        private volatile boolean placed;
        private volatile long kernelPid;

        Pair(long threadId, OptionalInt cpu, List<Integer> allowed, PrintStream notices) {
            this.threadId = threadId;
            this.cpu = cpu;
            this.allowed = List.copyOf(allowed);
            this.notices = notices;
        }

        /**
         * Moves the thread, then the kernel's main thread (a Linux thread id equals its process id for a process's
         * first thread), to the CPU; returns whether both moved. If the kernel cannot follow, the thread gets every
         * CPU back. Then watches the pair: should something else crowd that CPU (another synth's pair, a process held
         * to it), neither could leave, so both get every CPU back.
         */
        boolean place(ProcessHandle kernel) {
            kernelPid = kernel.pid();
            int target = cpu.orElseGet(() -> lastCpu(kernelPid).orElse(allowed.get(0)));
            // Made before the move: a thread started by a placed one would share its CPU.
            Thread watcher = new Thread(this::watch, "cpu-pairing-watch");
            watcher.setDaemon(true);
            placed = taskset(threadId, String.valueOf(target));
            if (placed && !taskset(kernelPid, String.valueOf(target))) {
                release();
            }
            if (!placed) {
                if (notices != null) {
                    notices.println("karpenter-cdktf: " + VARIABLE + "=" + target
                            + " not applied (taskset failed or is not installed); synthesizing without it");
                }
                return false;
            }
            watcher.start();
            return true;
        }

        /** Gives a placed thread every CPU this process may use again, and stops the watch. */
        synchronized void release() {
            if (placed) {
                taskset(threadId, ranges(allowed));
                placed = false;
            }
        }

        /** Both threads get every CPU back. */
        private synchronized void unpair() {
            if (placed) {
                taskset(threadId, ranges(allowed));
                taskset(kernelPid, ranges(allowed));
                placed = false;
            }
        }

        /** Whether the thread is placed (and the watch on). */
        boolean placed() {
            return placed;
        }

        /** Every {@value #WATCH_MILLIS} ms: the pair's share of its CPU, from the scheduler's run times. */
        private void watch() {
            Path threadStat = Path.of("/proc/self/task", String.valueOf(threadId), "schedstat");
            Path kernelStat = Path.of("/proc", String.valueOf(kernelPid), "schedstat");
            long since = System.nanoTime();
            long ran = runNanos(threadStat) + runNanos(kernelStat);
            while (placed) {
                try {
                    Thread.sleep(WATCH_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                long running = runNanos(threadStat) + runNanos(kernelStat);
                if (running - ran < CROWDED_SHARE * (now - since)) {
                    unpair();
                    return;
                }
                since = now;
                ran = running;
            }
        }

        /** A thread's time on a CPU so far, the first field of its schedstat; 0 once it is gone. */
        private static long runNanos(Path schedstat) {
            try {
                return Long.parseLong(Files.readString(schedstat).split(" ")[0]);
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }

        private static boolean taskset(long threadId, String cpus) {
            try {
                return new ProcessBuilder("taskset", "-p", "-c", cpus, String.valueOf(threadId))
                                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                                .redirectError(ProcessBuilder.Redirect.DISCARD)
                                .start()
                                .waitFor()
                        == 0;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /**
     * The kernel's own process under {@code started} (what jsii started): itself, or the end of a chain of only
     * children (a shell running the kernel's command without exec). Empty when that is not one process: jsii's
     * bundled launcher runs the kernel beside itself, and a relayed kernel is not worth placing.
     */
    static Optional<ProcessHandle> kernel(ProcessHandle started) {
        ProcessHandle process = started;
        for (int depth = 0; depth < 4 && process.isAlive(); depth++) {
            List<ProcessHandle> children = process.children().limit(2).toList();
            if (children.isEmpty()) {
                return Optional.of(process);
            }
            if (children.size() > 1 || isNode(process)) {
                return Optional.empty();
            }
            process = children.get(0);
        }
        return Optional.empty();
    }

    /** Whether this is Node.js itself (jsii's bundled launcher is), not a shell on the way to it. */
    private static boolean isNode(ProcessHandle process) {
        return process.info()
                .command()
                .map(command -> Path.of(command).getFileName().toString().startsWith("node"))
                .orElse(false);
    }

    /** The CPU a process's first thread last ran on: field 39 of its /proc stat line. */
    static OptionalInt lastCpu(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            // The command name (field 2) may hold spaces and parentheses; fields after it follow its last ')'.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
            return OptionalInt.of(Integer.parseInt(fields[39 - 3]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
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
