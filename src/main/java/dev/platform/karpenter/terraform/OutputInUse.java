package dev.platform.karpenter.terraform;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A shared hold on a synthesized output for the length of a run: a synthesis publishing meanwhile removes the
 * generation it replaces, with the stack directories the run's Terraform works in. Synthesis takes the same lock
 * file exclusively (synth.OutputDirectory#lock: {@code .<outdir name>.lock} beside the output), so it waits for the
 * runs, and they for it; runs share it with each other.
 */
final class OutputInUse implements AutoCloseable {
    private final FileChannel channel;

    private OutputInUse(FileChannel channel) {
        this.channel = channel;
    }

    /** The lock file of the output directory {@code outdir}. */
    static Path lockFile(Path outdir) {
        Path absolute = outdir.toAbsolutePath().normalize();
        return absolute.resolveSibling("." + absolute.getFileName() + ".lock");
    }

    /** Holds {@code outdir} shared, waiting (with one line on {@code log}) while a synthesis into it runs. */
    static OutputInUse hold(Path outdir, PrintStream log) {
        Path file = lockFile(outdir);
        try {
            Files.createDirectories(file.getParent());
            FileChannel channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            try {
                FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true);
                if (lock == null) {
                    log.println("stacks: waiting for the synthesis into " + outdir + " to finish");
                    channel.lock(0, Long.MAX_VALUE, true);
                }
                return new OutputInUse(channel);
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            throw new StacksException("cannot lock " + file + " (" + e.getMessage() + ")");
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing releases the lock; the process's exit would too
        }
    }
}
