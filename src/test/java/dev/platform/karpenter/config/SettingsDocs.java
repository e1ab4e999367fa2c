package dev.platform.karpenter.config;

import dev.platform.karpenter.config.Setting.Scope;
import dev.platform.karpenter.config.SettingsCatalogue.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * terraform.tfvars.example and the settings reference, rendered from {@link SettingsCatalogue}: everything they
 * say about a setting (what it does, default, allowed values, bounds, releases, where it may be written) comes from
 * its entry. docs.ReferenceDocsTest compares the committed files with this; libexec/write-docs rewrites them.
 */
public final class SettingsDocs {
    /** Comment lines of the example stop here, as the rest of the project's text files. */
    static final int WIDTH = 116;

    private static final String EXAMPLE_HEADER = """
            # Karpenter on an existing EKS cluster: the settings of one cluster.
            # Copy to terraform.tfvars (or point KARPENTER_TFVARS at a file or at a directory of *.tfvars, one per cluster)
            # and edit. Only cluster_name, region and karpenter_chart_version are required; every other line shows its default.
            # Unknown settings are rejected, so a typo fails the synth instead of being ignored.
            # Generated from config.SettingsCatalogue (libexec/write-docs rewrites this file; ReferenceDocsTest checks it).
            """;

    private SettingsDocs() {}

    /** The whole of terraform.tfvars.example. */
    public static String example() {
        StringBuilder out = new StringBuilder(EXAMPLE_HEADER);
        for (Section section : SettingsCatalogue.sections()) {
            List<Setting<?>> settings = settingsOf(section, Scope.CLUSTER);
            if (settings.isEmpty()) {
                continue;
            }
            out.append('\n').append(sectionRule(section)).append('\n');
            if (!section.intro().isEmpty()) {
                comment(out, section.intro());
            }
            for (int i = 0; i < settings.size(); i++) {
                if (i > 0 || !section.intro().isEmpty()) {
                    out.append('\n');
                }
                Setting<?> setting = settings.get(i);
                comment(out, sentence(setting.description()) + " " + setting.details() + " " + facts(setting));
                String line = setting.key() + " = " + setting.example();
                for (String part : line.split("\n")) {
                    out.append(setting.exampleShown() ? "" : "# ").append(part).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** The settings tables, one per section, for docs/reference/settings.md. */
    public static String tables() {
        StringBuilder out = new StringBuilder();
        for (Section section : SettingsCatalogue.sections()) {
            List<Setting<?>> settings = settingsOf(section, null);
            out.append('\n')
                    .append("**")
                    .append(section.title())
                    .append("**")
                    .append(section.stack().isEmpty() ? "" : " (stack `<cluster>-" + section.stack() + "`)")
                    .append("\n\n")
                    .append("| setting | type | default | allowed | Karpenter | written in | what it does |\n")
                    .append("|---|---|---|---|---|---|---|\n");
            for (Setting<?> setting : settings) {
                out.append("| `")
                        .append(setting.key())
                        .append("` | ")
                        .append(setting.type().terraform())
                        .append(" | ")
                        .append(cell(defaultText(setting)))
                        .append(" | ")
                        .append(cell(allowedText(setting, "`")))
                        .append(" | ")
                        .append(
                                setting.releases().isAll()
                                        ? "all"
                                        : setting.releases().text())
                        .append(" | ")
                        .append(setting.scopes().stream()
                                .sorted()
                                .map(Scope::where)
                                .collect(Collectors.joining(", ")))
                        .append(" | ")
                        .append(cell(setting.description()))
                        .append(" |\n");
            }
        }
        return out.toString();
    }

    private static List<Setting<?>> settingsOf(Section section, Scope scope) {
        return SettingsCatalogue.all().stream()
                .filter(setting -> setting.section().equals(section))
                .filter(setting -> scope == null || setting.scopes().contains(scope))
                .toList();
    }

    /** "# --- Identity (stack <cluster>-iam) ---...---", 113 characters. */
    private static String sectionRule(Section section) {
        String title = "# --- " + section.title()
                + (section.stack().isEmpty() ? "" : " (stack <cluster>-" + section.stack() + ")") + " ";
        return title + "-".repeat(Math.max(3, 113 - title.length()));
    }

    /** What the entry states beyond its description, in sentences: releases, allowed values, bounds, defaults. */
    private static String facts(Setting<?> setting) {
        List<String> facts = new ArrayList<>();
        if (setting.required()) {
            facts.add("Required.");
        }
        if (!setting.releases().isAll()) {
            facts.add("Karpenter " + setting.releases().text() + " only.");
        }
        String allowed = allowedText(setting, "");
        if (!allowed.isEmpty()) {
            facts.add("Allowed: " + allowed + ".");
        }
        if (setting.inPools()) {
            facts.add("A node_pools entry may set it too.");
        }
        setting.derivedDefault().ifPresent(what -> facts.add("Default: " + what + "."));
        return String.join(" ", facts);
    }

    /** "\"a\", \"b\" (0.35 and later)", "at least 1"; each value between {@code code} marks. */
    private static String allowedText(Setting<?> setting, String code) {
        List<String> parts = new ArrayList<>();
        for (Setting.Allowed allowed : setting.allowed()) {
            parts.add(code
                    + ConfigException.quoteWhole(allowed.value())
                    + code
                    + (allowed.releases().isAll()
                            ? ""
                            : " (" + allowed.releases().text() + ")"));
        }
        setting.min().ifPresent(min -> parts.add("at least " + min));
        String text = String.join(", ", parts);
        return setting.nonEmpty() ? text + " (at least one)" : text;
    }

    private static String defaultText(Setting<?> setting) {
        if (setting.required()) {
            return "required";
        }
        if (setting.derivedDefault().isPresent()) {
            return setting.derivedDefault().get();
        }
        return setting.defaultValue()
                .map(value -> "`" + Setting.Hcl.literal(value) + "`")
                .orElse("unset");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    private static String sentence(String description) {
        return Character.toUpperCase(description.charAt(0)) + description.substring(1) + ".";
    }

    /** {@code text} as "# " comment lines of at most {@link #WIDTH} characters. */
    private static void comment(StringBuilder out, String text) {
        StringBuilder line = new StringBuilder("#");
        for (String word : text.trim().split("\\s+")) {
            if (line.length() + 1 + word.length() > WIDTH && line.length() > 1) {
                out.append(line).append('\n');
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        out.append(line).append('\n');
    }
}
