package dev.platform.karpenter.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a string as Terraform reads a JSON configuration's strings: as a template, whose {@code ${...}} and
 * {@code %{...}} are evaluated unless escaped ({@code $${}, {@code %%{}). Finds the evaluated sequences, each
 * whole to its matching brace (nested braces and quoted strings inside an expression skipped).
 */
final class TemplateScanner {
    private TemplateScanner() {}

    /** Every sequence Terraform would evaluate, as written (e.g. {@code ${aws_iam_role.x.arn}}). */
    static List<String> expressions(String text) {
        List<String> found = new ArrayList<>();
        scan(text, (start, end) -> found.add(text.substring(start, end)));
        return found;
    }

    /** The text with every evaluated sequence but those in {@code keep} replaced by "REF". */
    static String replaceReferences(String text, Set<String> keep) {
        StringBuilder out = new StringBuilder();
        int[] copied = {0};
        scan(text, (start, end) -> {
            String expression = text.substring(start, end);
            if (!keep.contains(expression)) {
                out.append(text, copied[0], start).append("REF");
                copied[0] = end;
            }
        });
        return out.append(text.substring(copied[0])).toString();
    }

    private interface Found {
        void at(int start, int end);
    }

    private static void scan(String text, Found found) {
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$${", i) || text.startsWith("%%{", i)) {
                i += 3;
            } else if (text.startsWith("${", i) || text.startsWith("%{", i)) {
                int end = closing(text, i + 2);
                found.at(i, end);
                i = end;
            } else {
                i++;
            }
        }
    }

    /** Just past the brace that closes the expression starting at {@code from}, or the text's end. */
    private static int closing(String text, int from) {
        int depth = 1;
        boolean quoted = false;
        for (int j = from; j < text.length(); j++) {
            char c = text.charAt(j);
            if (quoted) {
                if (c == '\\') {
                    j++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return j + 1;
            }
        }
        return text.length();
    }
}
