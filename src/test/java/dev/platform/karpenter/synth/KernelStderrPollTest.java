package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Stopping jsii's poll of the kernel's console output, run on a real poll (jsii's own thread class, reading a real
 * pipe) rather than this JVM's, which the other tests' kernel still needs.
 */
class KernelStderrPollTest {
    private Process pipe;

    @AfterEach
    void stopPipe() {
        if (pipe != null) {
            pipe.destroyForcibly();
        }
    }

    @Test
    void aDrainedPollStopsAtOnce() throws Exception {
        JsiiInternals.ConsolePoll poll = startPoll();
        awaitSleeping(poll.thread());

        assertThat(KernelStderrPoll.stopIfDrained(poll)).isTrue();

        poll.thread().join(TimeUnit.SECONDS.toMillis(10));
        assertThat(poll.thread().isAlive()).isFalse();
    }

    @Test
    void aPollWithOutputUnreadIsLeftAlone() throws Exception {
        pipe = new ProcessBuilder("cat").start();
        writeLine("KernelStderrPollTest: console output the poll reads");
        awaitAvailable();
        CountDownLatch done = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        reader.start();

        assertThat(KernelStderrPoll.stopIfDrained(new JsiiInternals.ConsolePoll(reader, pipe.getInputStream())))
                .isFalse();

        assertThat(reader.isInterrupted()).isFalse();
        done.countDown();
    }

    /**
     * The kernel writes its console output before it answers, so once the synthesis is complete the output is in the
     * pipe; the poll then reads (and prints) it before it stops.
     */
    @Test
    void whatTheKernelWroteIsReadBeforeTheRealPollStops() throws Exception {
        JsiiInternals.ConsolePoll poll = startPoll();
        awaitSleeping(poll.thread());
        writeLine("KernelStderrPollTest: console output the poll reads");
        awaitAvailable();

        boolean stopped = KernelStderrPoll.stopIfDrained(poll);
        for (int i = 0; i < 1000 && pipe.getInputStream().available() > 0; i++) {
            Thread.sleep(10);
        }
        if (!stopped) {
            awaitSleeping(poll.thread());
            assertThat(KernelStderrPoll.stopIfDrained(poll)).isTrue();
        }

        poll.thread().join(TimeUnit.SECONDS.toMillis(10));
        assertThat(poll.thread().isAlive()).isFalse();
        assertThat(pipe.getInputStream().available()).as("left unread").isZero();
    }

    /** A line of console output as the kernel's preload writes it. */
    private void writeLine(String text) throws IOException {
        OutputStream kernel = pipe.getOutputStream();
        String encoded = Base64.getEncoder().encodeToString((text + "\n").getBytes(StandardCharsets.UTF_8));
        kernel.write(("{\"stderr\":\"" + encoded + "\"}\n").getBytes(StandardCharsets.UTF_8));
        kernel.flush();
    }

    /** jsii's own poll on the output of a cat process: what is written to cat's input is what the poll reads. */
    private JsiiInternals.ConsolePoll startPoll() throws Exception {
        pipe = new ProcessBuilder("cat").start();
        Class<?> sinkClass = Class.forName("software.amazon.jsii.JsiiRuntime$ErrorStreamSink");
        Constructor<?> constructor = sinkClass.getDeclaredConstructor(java.io.InputStream.class);
        constructor.setAccessible(true);
        Thread sink = (Thread) constructor.newInstance(pipe.getInputStream());
        sink.start();
        return new JsiiInternals.ConsolePoll(sink, pipe.getInputStream());
    }

    private void awaitAvailable() throws IOException, InterruptedException {
        for (int i = 0; i < 1000 && pipe.getInputStream().available() == 0; i++) {
            Thread.sleep(1);
        }
        assertThat(pipe.getInputStream().available())
                .as("the line reached the pipe")
                .isPositive();
    }

    private static void awaitSleeping(Thread thread) throws InterruptedException {
        for (int i = 0; i < 1000 && thread.getState() != Thread.State.TIMED_WAITING; i++) {
            Thread.sleep(1);
        }
        assertThat(thread.getState()).isEqualTo(Thread.State.TIMED_WAITING);
    }
}
