package dev.platform.karpenter.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The top-level {@code help} file, as {@code cdktf init} makes one for a Java project: the commands a user runs, one
 * entry per script in {@code bin/}, made from each script's own header (its usage lines, else its name, and its
 * first sentence), so that it cannot drift from what {@code bin/} holds.
 */
final class HelpFile {
    static final Path PATH = Path.of("help");
    private static final int WIDTH = 116;

    private HelpFile() {}

    static String text(Path bin) {
        StringBuilder out = new StringBuilder();
        out.append("karpenter-cdktf: the commands you run, from the project root. Each in bin/ takes --help;\n")
                .append("docs/guides/commands.md says what each does in this project. (Written by libexec/write-docs")
                .append(" from bin/.)\n\n")
                .append("Build and test:\n  mvn -B verify\n      Builds the app and runs every test: unit tests on the")
                .append(" synthesized Terraform JSON, then the\n      integration tests on moto.\n\n")
                .append("Commands:\n");
        for (Path script : scripts(bin)) {
            List<String> header = header(script);
            List<String> usage = usage(header);
            for (String line : usage.isEmpty() ? List.of("bin/" + script.getFileName()) : usage) {
                out.append("  ").append(line).append('\n');
            }
            wrap(firstSentence(header), "      ", out);
            out.append('\n');
        }
        return out.toString().stripTrailing() + "\n";
    }

    /** The header's usage lines ("  bin/..." or "Usage: bin/...") with their indented continuations. */
    private static List<String> usage(List<String> header) {
        List<String> usage = new ArrayList<>();
        boolean inUsage = false;
        for (String line : header) {
            if (line.startsWith("  bin/") || line.startsWith("Usage: bin/")) {
                usage.add(line.replaceFirst("^Usage: ", "").strip().replaceAll("\\s{4,}bin/\\S+ --help$", ""));
                inUsage = true;
            } else if (inUsage && line.startsWith("    ")) {
                usage.add("  " + line.strip());
            } else {
                inUsage = false;
            }
        }
        return usage;
    }

    private static List<Path> scripts(Path bin) {
        try (Stream<Path> files = Files.list(bin)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The comment block after the shebang, without the "# ". */
    private static List<String> header(Path script) {
        try {
            List<String> header = new ArrayList<>();
            for (String line : Files.readAllLines(script)
                    .subList(1, Files.readAllLines(script).size())) {
                if (!line.startsWith("#")) {
                    break;
                }
                header.add(line.replaceFirst("^# ?", ""));
            }
            return header;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The header's first paragraph up to its first full stop that ends a sentence. */
    private static String firstSentence(List<String> header) {
        StringBuilder paragraph = new StringBuilder();
        for (String line : header) {
            if (line.isBlank() || line.startsWith("  bin/") || line.startsWith("Usage:")) {
                break;
            }
            paragraph.append(paragraph.isEmpty() ? "" : " ").append(line.strip());
        }
        String text = paragraph.toString();
        int end = text.indexOf(". ");
        return end < 0 ? text : text.substring(0, end + 1);
    }

    private static void wrap(String text, String indent, StringBuilder out) {
        StringBuilder line = new StringBuilder(indent);
        for (String word : text.split(" ")) {
            if (line.length() > indent.length() && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                line = new StringBuilder(indent);
            }
            line.append(line.length() > indent.length() ? " " : "").append(word);
        }
        out.append(line).append('\n');
    }
}
