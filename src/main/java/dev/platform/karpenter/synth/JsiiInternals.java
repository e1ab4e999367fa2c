package dev.platform.karpenter.synth;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.Optional;
import software.amazon.jsii.JsiiEngine;

/**
 * What this app reads from the private state of jsii's Java runtime, all in one place: the kernel process it started
 * and the thread that polls the kernel's console output. These are internals of the pinned jsii-runtime
 * (pom.xml {@code jsii.version}; the app refuses another version at start, see {@link RunSettings}), to re-check on
 * every jsii upgrade: the fields {@code INSTANCE} and {@code runtime} of {@link JsiiEngine}, {@code childProcess} and
 * {@code errorStreamSink} of its runtime, and {@code inputStream} of the sink. {@code JsiiInternalsTest} reads them
 * from the pinned runtime. Should one be missing, what uses it does nothing, as with another runtime.
 */
final class JsiiInternals {
    private JsiiInternals() {}

    /** The kernel's console output: jsii's thread that polls it, and the stream it reads. */
    record ConsolePoll(Thread thread, InputStream stream) {}

    /** The process jsii started for this JVM's kernel, once a request has started it. */
    static Optional<Process> kernelProcess() {
        return runtimeField("childProcess").filter(Process.class::isInstance).map(Process.class::cast);
    }

    /** jsii's poll of the kernel's console output, once a request has started the kernel. */
    static Optional<ConsolePoll> consolePoll() {
        try {
            Optional<Object> sink = runtimeField("errorStreamSink");
            if (sink.isPresent()
                    && sink.get() instanceof Thread thread
                    && field(thread.getClass(), "inputStream").get(thread) instanceof InputStream stream) {
                return Optional.of(new ConsolePoll(thread, stream));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another runtime
        }
        return Optional.empty();
    }

    /** A field of the engine's runtime; empty if no engine was made (reading it must not start a kernel). */
    private static Optional<Object> runtimeField(String name) {
        try {
            Object engine = field(JsiiEngine.class, "INSTANCE").get(null);
            Object runtime =
                    engine == null ? null : field(JsiiEngine.class, "runtime").get(engine);
            return runtime == null
                    ? Optional.empty()
                    : Optional.ofNullable(field(runtime.getClass(), name).get(runtime));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
