package dev.platform.karpenter.synth;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.Optional;
import software.amazon.jsii.JsiiEngine;

/**
 * Ends jsii's poll of the kernel's standard error once nothing is left to read, so that the JVM exits without waiting
 * for it.
 *
 * <p>jsii's Java runtime reads the kernel's console output on a thread that sleeps 100 ms between polls, and its
 * shutdown hook waits for that sleep to end: every synth paid 0 to 100 ms at exit, and one cluster's time fell on two
 * levels 100 ms apart (docs/contributing/performance.md). After a synthesis the kernel writes nothing more until it
 * is told to exit. So when nothing waits in the pipe, the poll is interrupted: in its sleep, it stops at once; while
 * reading, it first prints what is there (an interrupt only ends a sleep). With anything unread it is left alone.
 *
 * <p>Relies on internals of the pinned jsii runtime (the app refuses another version, see {@link RunSettings}): the
 * fields {@code INSTANCE} and {@code runtime} of {@link JsiiEngine}, {@code errorStreamSink} of its runtime, and the
 * sink's {@code inputStream}. {@code KernelStderrPollTest} finds them and runs the real poll.
 */
final class KernelStderrPoll {
    private final Thread poll;
    private final InputStream stream;

    KernelStderrPoll(Thread poll, InputStream stream) {
        this.poll = poll;
        this.stream = stream;
    }

    /** The poll of this JVM's kernel, if one was started and the runtime is the one this knows. */
    static Optional<KernelStderrPoll> ofThisJvm() {
        try {
            Object engine = field(JsiiEngine.class, "INSTANCE").get(null);
            Object runtime =
                    engine == null ? null : field(JsiiEngine.class, "runtime").get(engine);
            Object sink = runtime == null
                    ? null
                    : field(runtime.getClass(), "errorStreamSink").get(runtime);
            if (sink instanceof Thread thread
                    && field(thread.getClass(), "inputStream").get(thread) instanceof InputStream stream) {
                return Optional.of(new KernelStderrPoll(thread, stream));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another runtime: its poll is left as it is
        }
        return Optional.empty();
    }

    /** Stops the poll after a completed synthesis of this JVM, if it has nothing left to read. */
    static void stopIfDrainedInThisJvm() {
        ofThisJvm().ifPresent(KernelStderrPoll::stopIfDrained);
    }

    /** Interrupts the poll if it runs and nothing waits in its stream; returns whether it did. */
    boolean stopIfDrained() {
        try {
            if (!poll.isAlive() || stream.available() > 0) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        poll.interrupt();
        return true;
    }

    Thread thread() {
        return poll;
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
