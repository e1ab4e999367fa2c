package dev.platform.karpenter.synth;

import dev.platform.karpenter.config.ConfigException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The output directory, published so that a reader (or a kill at any instant) sees either the previous complete
 * output or the new complete one, never a mix.
 *
 * <p>Layout, for an output directory {@code cdktf.out}: each synthesis is written to a staging directory
 * {@code .cdktf.out.staging-*} next to it, renamed to a generation {@code .cdktf.out.gen-*} when complete, and
 * published by replacing the symbolic link {@code cdktf.out -> .cdktf.out.gen-*} with one rename, the only step a
 * reader can observe. Generations sit next to the link, at the same depth, so the relative local-state paths of the
 * stacks ({@code ../../../terraform.<stack>.tfstate}, resolved by Terraform from the real directory) still reach the
 * project. Terraform's working files ({@code .terraform}, the lock file) are carried into the new generation as hard
 * links before the switch, so the old generation stays whole until the switch and a re-synth needs no new init.
 *
 * <p>One synthesis at a time: {@link #lock} takes an exclusive lock on {@code .cdktf.out.lock} (released by the
 * operating system when the process dies) around publishing; a second synthesis waits for it. A kill leaves at
 * most a staging directory or an unlinked generation behind: {@link #newStaging} removes the first (when the
 * process named in it is gone), {@link #recover}, under the lock, the second.
 */
public final class OutputDirectory {
    /** What Terraform keeps in a stack directory between runs; carried from one generation to the next. */
    private static final List<String> TERRAFORM_WORKING_FILES = List.of(".terraform", ".terraform.lock.hcl");
    /** What an output directory written before generations existed may hold (plans.md: bin/plan-stacks' report). */
    private static final Set<String> OUTPUT_ENTRIES = Set.of("manifest.json", "stacks", "plans.md");

    private final Path outdir;
    private final String name;

    private OutputDirectory(Path outdir) {
        this.outdir = outdir;
        this.name = outdir.getFileName().toString();
    }

    /**
     * The output directory at {@code outdir} (absolute, normalized). Refuses what it cannot safely replace: the
     * file system root, a file, a directory holding anything but a synthesis output, a symbolic link it did not make.
     */
    public static OutputDirectory at(Path outdir) {
        if (outdir.getParent() == null || outdir.getFileName() == null) {
            throw new BadEnvironment("cannot write the output to " + ConfigException.quoteWhole(String.valueOf(outdir))
                    + ": it needs a directory of its own below an existing one");
        }
        OutputDirectory output = new OutputDirectory(outdir);
        if (Files.isSymbolicLink(outdir)) {
            if (output.linkedGeneration().isEmpty()) {
                throw new BadEnvironment(ConfigException.quoteWhole(String.valueOf(outdir))
                        + " is a symbolic link this app did not make;"
                        + " remove it, or name its target as the output directory");
            }
        } else if (Files.isRegularFile(outdir)) {
            throw new BadEnvironment(
                    ConfigException.quoteWhole(String.valueOf(outdir)) + " is a file; the output needs a directory");
        } else if (Files.isDirectory(outdir)) {
            try (Stream<Path> entries = Files.list(outdir)) {
                Optional<String> foreign = entries.map(p -> p.getFileName().toString())
                        .filter(entry -> !OUTPUT_ENTRIES.contains(entry))
                        .sorted()
                        .findFirst();
                if (foreign.isPresent()) {
                    throw new BadEnvironment(ConfigException.quoteWhole(String.valueOf(outdir)) + " holds "
                            + ConfigException.quoteWhole(foreign.get())
                            + ", which no synthesis wrote; name an empty or a new directory for the output");
                }
            } catch (IOException e) {
                throw new BadEnvironment(
                        "cannot read " + ConfigException.quoteWhole(String.valueOf(outdir)) + ": " + reason(e));
            }
        }
        return output;
    }

    public Path path() {
        return outdir;
    }

    /**
     * Takes the exclusive lock of this output directory, waiting (with one line on {@code log}) while another
     * synthesis holds it, or a bin/stacks run holds it shared (publishing removes the generation it works in).
     */
    public Lock lock(PrintStream log) {
        Path lockFile = sibling("lock");
        try {
            Files.createDirectories(outdir.getParent());
            FileChannel channel = FileChannel.open(
                    lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
            try {
                FileLock lock = channel.tryLock();
                if (lock == null) {
                    String holder = new String(Files.readAllBytes(lockFile), StandardCharsets.US_ASCII).strip();
                    // A bin/stacks run holds the file shared (terraform.OutputInUse) and writes no process id.
                    log.println("karpenter-cdktf: waiting for another synthesis into " + outdir
                            + (holder.isEmpty() ? "" : " (last taken by process " + holder + ")")
                            + ", or a bin/stacks run using it, to finish");
                    lock = channel.lock();
                }
                channel.truncate(0)
                        .write(
                                ByteBuffer.wrap(
                                        (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
                                0);
                return new Lock(channel);
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            throw new BadEnvironment("cannot lock the output directory "
                    + ConfigException.quoteWhole(String.valueOf(outdir)) + ": " + reason(e));
        }
    }

    /**
     * Under the lock, before publishing: an output left unlinked (a kill between the two renames that turn an
     * output directory from before generations into a link) is relinked to the newest generation; every other
     * generation is a leftover of a killed run, and goes.
     */
    public void recover() throws IOException {
        List<Path> generations = siblings("gen-");
        if (!Files.exists(outdir, LinkOption.NOFOLLOW_LINKS) && !generations.isEmpty()) {
            Path newest = generations.stream()
                    .max(Comparator.comparing(OutputDirectory::modified))
                    .orElseThrow();
            link(newest);
        }
        Optional<Path> live = linkedGeneration();
        for (Path leftover : siblings("gen-")) {
            if (live.isEmpty() || !leftover.equals(live.get())) {
                deleteRecursively(leftover);
            }
        }
    }

    /**
     * A new, empty staging directory for one synthesis, named after this process; staging directories of
     * processes that no longer run (killed synths) are removed first.
     */
    public Path newStaging() {
        try {
            Files.createDirectories(outdir.getParent());
            for (Path staging : siblings("staging-")) {
                if (!ownerAlive(staging)) {
                    deleteRecursively(staging);
                }
            }
            return Files.createDirectory(
                    sibling("staging-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID()));
        } catch (IOException e) {
            throw new BadEnvironment("cannot write next to the output directory "
                    + ConfigException.quoteWhole(String.valueOf(outdir)) + ": " + reason(e));
        } catch (UncheckedIOException e) {
            throw new BadEnvironment("cannot write next to the output directory "
                    + ConfigException.quoteWhole(String.valueOf(outdir)) + ": " + reason(e.getCause()));
        }
    }

    /** Whether the process that named a staging directory after itself still runs. */
    private boolean ownerAlive(Path staging) {
        String id = staging.getFileName().toString().substring(("." + name + ".staging-").length());
        int dash = id.indexOf('-');
        try {
            long pid = Long.parseLong(dash < 0 ? id : id.substring(0, dash));
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Publishes a complete synthesis: carries the Terraform working files over, renames the staging directory to a
     * generation, switches the link to it, then removes the previous generation. Stacks of clusters no longer
     * configured are not carried, so they disappear with the previous generation.
     *
     * @param keepRemovedStacks leave an empty directory for each removed stack (the cdktf CLI removes those it
     *                          listed before the synthesis, and fails on one that is gone)
     */
    public void publish(Path staging, boolean keepRemovedStacks) throws IOException {
        Path previous = Files.isSymbolicLink(outdir)
                ? linkedGeneration().orElse(null)
                : Files.isDirectory(outdir) ? outdir : null;
        if (previous != null && Files.isDirectory(previous.resolve("stacks"))) {
            try (Stream<Path> stacks = Files.list(previous.resolve("stacks"))) {
                for (Path stack : stacks.toList()) {
                    Path staged = staging.resolve("stacks")
                            .resolve(stack.getFileName().toString());
                    if (Files.isDirectory(staged)) {
                        for (String kept : TERRAFORM_WORKING_FILES) {
                            if (Files.exists(stack.resolve(kept), LinkOption.NOFOLLOW_LINKS)) {
                                linkTree(stack.resolve(kept), staged.resolve(kept));
                            }
                        }
                    } else if (keepRemovedStacks) {
                        Files.createDirectories(staged);
                    }
                }
            }
        }
        Path generation = Files.move(
                staging,
                sibling("gen-" + staging.getFileName().toString().substring(("." + name + ".staging-").length())),
                StandardCopyOption.ATOMIC_MOVE);
        if (previous != null && previous.equals(outdir)) {
            // An output directory from before generations: set aside as one, so the link can take its place.
            previous = Files.move(outdir, sibling("gen-" + UUID.randomUUID()), StandardCopyOption.ATOMIC_MOVE);
        }
        link(generation);
        if (previous != null) {
            deleteRecursively(previous);
        }
    }

    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The reason of a failed file operation, without Java's exception names. */
    static String reason(IOException e) {
        if (e instanceof FileSystemException fs) {
            String why = fs.getReason() != null
                    ? fs.getReason()
                    : e.getClass()
                            .getSimpleName()
                            .replace("Exception", "")
                            .replaceAll("([a-z])([A-Z])", "$1 $2")
                            .toLowerCase();
            return (fs.getFile() != null ? fs.getFile() + ": " : "") + why;
        }
        return String.valueOf(e.getMessage());
    }

    /** Replaces the link with one to {@code generation}, in one rename. */
    private void link(Path generation) throws IOException {
        Path link = sibling("link-" + UUID.randomUUID());
        Files.createSymbolicLink(link, generation.getFileName());
        Files.move(link, outdir, StandardCopyOption.ATOMIC_MOVE);
    }

    private Optional<Path> linkedGeneration() {
        try {
            Path target = Files.readSymbolicLink(outdir);
            String prefix = "." + name + ".gen-";
            return target.getParent() == null && target.toString().startsWith(prefix)
                    ? Optional.of(outdir.resolveSibling(target))
                    : Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    private Path sibling(String suffix) {
        return outdir.resolveSibling("." + name + "." + suffix);
    }

    private List<Path> siblings(String kind) throws IOException {
        String prefix = "." + name + "." + kind;
        try (Stream<Path> entries = Files.list(outdir.getParent())) {
            return entries.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .sorted()
                    .toList();
        }
    }

    private static long modified(Path path) {
        try {
            return Files.getLastModifiedTime(path, LinkOption.NOFOLLOW_LINKS).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /** Recreates a tree with hard links to its files (copies where a link is refused), keeping symbolic links. */
    private static void linkTree(Path source, Path target) throws IOException {
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
                Files.createDirectories(target.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Path copy = target.resolve(source.relativize(file).toString());
                if (attributes.isSymbolicLink()) {
                    Files.createSymbolicLink(copy, Files.readSymbolicLink(file));
                } else {
                    try {
                        Files.createLink(copy, file);
                    } catch (IOException | UnsupportedOperationException e) {
                        Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** The held lock; closing releases it. */
    public static final class Lock implements AutoCloseable {
        private final FileChannel channel;

        private Lock(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
