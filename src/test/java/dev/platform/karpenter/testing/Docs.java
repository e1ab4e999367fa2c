package dev.platform.karpenter.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The project's documentation as tests read it: the README and the pages under docs/. */
public final class Docs {
    private Docs() {}

    /** One page, by its path from the project's root, e.g. "docs/guides/upstream-fields.md". */
    public static String page(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The README and every page under docs/, in path order: for a fact that may stand on any of them. */
    public static String all() {
        try (Stream<Path> pages = Files.walk(Path.of("docs"))) {
            return page("README.md")
                    + pages.filter(p -> p.toString().endsWith(".md"))
                            .sorted()
                            .map(p -> page(p.toString()))
                            .collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
