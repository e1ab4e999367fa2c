package dev.platform.karpenter.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README and the pages under docs/ reaches a file of the repository, and its #anchor a
 * heading of that page as GitHub names them (lowercase; punctuation but '-' and '_' dropped; spaces as '-'; a
 * repeated heading gets -1, -2).
 */
class DocLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*$");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");

    @Test
    void everyRelativeLinkReachesAFileAndAHeading() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            String text = FENCE.matcher(Files.readString(page)).replaceAll("");
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty()
                        ? page
                        : page.toAbsolutePath().getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + ": " + target + " (no such file)");
                    continue;
                }
                if (hash >= 0 && resolved.toString().endsWith(".md")) {
                    String anchor = target.substring(hash + 1);
                    Set<String> known = anchors.computeIfAbsent(resolved, DocLinksTest::anchors);
                    if (!known.contains(anchor)) {
                        broken.add(page + ": " + target + " (no heading #" + anchor + ")");
                    }
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    private static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        try {
            Matcher heading =
                    HEADING.matcher(FENCE.matcher(Files.readString(page)).replaceAll(""));
            while (heading.find()) {
                String slug = heading.group(1)
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
                        .replaceAll("\\s", "-");
                String unique = slug;
                for (int i = 1; !anchors.add(unique); i++) {
                    unique = slug + "-" + i;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return anchors;
    }
}
