package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;

import com.hashicorp.cdktf.Token;
import org.junit.jupiter.api.Test;

/** The private state this app reads from the pinned jsii runtime is there, with the types it expects. */
class JsiiInternalsTest {
    @Test
    void findsTheKernelProcessAndThePollOfItsConsoleOutput() {
        Token.isUnresolved("started"); // any call starts the kernel, and with it the poll

        assertThat(JsiiInternals.kernelProcess())
                .hasValueSatisfying(kernel -> assertThat(kernel.isAlive()).isTrue());
        assertThat(JsiiInternals.kernelProcess().orElseThrow().toHandle().parent())
                .contains(ProcessHandle.current());
        assertThat(JsiiInternals.consolePoll())
                .hasValueSatisfying(poll -> assertThat(poll.thread().getName())
                        .isEqualTo("software.amazon.jsii.JsiiRuntime.ErrorStreamSink"));
    }
}
