package dev.platform.karpenter.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A command's standard output and error, captured as UTF-8 text for its test to read back. */
public final class Console {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** The stream to hand the command as its standard output. */
    public PrintStream out() {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    /** The stream to hand the command as its standard error. */
    public PrintStream err() {
        return new PrintStream(err, true, StandardCharsets.UTF_8);
    }

    public String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    public String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Forgets what was written, before the next run. */
    public void reset() {
        out.reset();
        err.reset();
    }
}
