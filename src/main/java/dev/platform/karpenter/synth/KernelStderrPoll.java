package dev.platform.karpenter.synth;

import java.io.IOException;
import java.util.Map;

/**
 * Ends jsii's poll of the kernel's console output once nothing is left to read, so that the JVM exits without waiting
 * for it.
 *
 * <p>jsii's Java runtime reads the kernel's standard error on a thread that sleeps 100 ms between polls, and its
 * shutdown hook waits for that sleep to end: every synth paid 0 to 100 ms at exit, and one cluster's time fell on two
 * levels 100 ms apart (docs/contributing/performance.md). The kernel writes its console output before it answers a
 * request, so after a synthesis whatever it printed is in the pipe. When nothing waits there, the poll is
 * interrupted: in its sleep, it stops at once; while reading, it first prints what is there (an interrupt only ends
 * a sleep). With anything unread it is left alone.
 *
 * <p>The one loss: what the kernel would write while it exits, after this (the poll used to read until the kernel
 * closed its standard error). Nothing does in a normal run; with {@value #DEBUG_VARIABLE} set, jsii traces every
 * message, the exit's too, so the poll is left alone then.
 */
final class KernelStderrPoll {
    static final String DEBUG_VARIABLE = "JSII_DEBUG";

    private KernelStderrPoll() {}

    /** Stops this JVM's poll after a completed synthesis, if it has nothing left to read. */
    static void stopIfDrained(Map<String, String> env) {
        if (env.containsKey(DEBUG_VARIABLE)) {
            return;
        }
        JsiiInternals.consolePoll().ifPresent(KernelStderrPoll::stopIfDrained);
    }

    /** Interrupts the poll if it runs and nothing waits in its stream; returns whether it did. */
    static boolean stopIfDrained(JsiiInternals.ConsolePoll poll) {
        try {
            if (!poll.thread().isAlive() || poll.stream().available() > 0) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        poll.thread().interrupt();
        return true;
    }
}
