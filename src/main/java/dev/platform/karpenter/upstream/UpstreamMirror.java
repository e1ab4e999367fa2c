package dev.platform.karpenter.upstream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A folder of upstream Karpenter's files, laid out as {@code <tag>/<path in aws/karpenter-provider-aws>}: what the
 * vendoring tool derives the app's facts from and what the tests render and validate against. The project commits
 * none of it; {@value #VARIABLE} names it, and {@value #FETCH_COMMAND} builds one from the public repository.
 *
 * <p>Beside the tag folders, {@value #TAGS_FILE} (written by {@value #FETCH_COMMAND}) records each tag's commit and
 * commit date, which the folders themselves do not carry.
 */
public final class UpstreamMirror {
    public static final String VARIABLE = "KARPENTER_UPSTREAM_MIRROR";
    public static final String FETCH_COMMAND = "libexec/fetch-upstream";
    /** Lines of {@code TAG<TAB>COMMIT<TAB>COMMIT_DATE}. */
    public static final String TAGS_FILE = "tags.tsv";

    /** A tag's commit and the commit's date (ISO 8601, as git's %cI prints it). */
    public record Commit(String sha, String date) {}

    private final Path root;

    private UpstreamMirror(Path root) {
        this.root = root;
    }

    /** The mirror at {@code root}, which must be a folder. */
    public static UpstreamMirror at(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException(VARIABLE + " " + root + " is not a folder");
        }
        return new UpstreamMirror(root.toAbsolutePath().normalize());
    }

    /** The mirror {@value #VARIABLE} names, empty when it is unset or blank. */
    public static Optional<UpstreamMirror> fromEnvironment(Map<String, String> env) {
        String named = env.getOrDefault(VARIABLE, "");
        return named.isBlank() ? Optional.empty() : Optional.of(at(Path.of(named)));
    }

    /** One line saying how to get a mirror, for messages where there is none. */
    public static String howToGetOne() {
        return "set " + VARIABLE + " to a folder laid out as <tag>/<path in aws/karpenter-provider-aws> ("
                + FETCH_COMMAND + " builds one)";
    }

    public Path root() {
        return root;
    }

    /** Whether the mirror holds {@code tag}. */
    public boolean has(String tag) {
        return Files.isDirectory(root.resolve(tag));
    }

    /** {@code path} of upstream's repository at {@code tag}; refused when the mirror lacks the tag. */
    public Path file(String tag, String path) {
        if (!has(tag)) {
            throw new IllegalArgumentException("the upstream mirror " + root + " has no tag " + tag + " ("
                    + FETCH_COMMAND + " " + tag + " adds it)");
        }
        return root.resolve(tag).resolve(path);
    }

    /** The commits {@value #TAGS_FILE} records, by tag; empty without the file. */
    public Map<String, Commit> commits() {
        Path file = root.resolve(TAGS_FILE);
        Map<String, Commit> commits = new TreeMap<>();
        if (!Files.isRegularFile(file)) {
            return commits;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                String[] cells = line.split("\t");
                if (cells.length == 3) {
                    commits.put(cells[0], new Commit(cells[1], cells[2]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return commits;
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
