package dev.platform.karpenter.upstream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics one Karpenter release documents, as facts: from the tag's metrics reference page
 * ({@value #PAGE}; {@value #OLD_PAGE} at 0.30 and 0.31) to one line per metric, "NAME GROUP STABILITY", sorted by
 * name, no prose. The page names each metric, the group it lists it under, and (from 0.33) its stability level; it
 * states neither a metric's type nor its labels. The facts file {@value #FILE} of a minor sits beside its
 * release.properties, whose tag and commit its header names. The same page gives the same bytes.
 *
 * <p>Upstream generates the page from the metrics the code registers, and at some tags the generator missed most of
 * them (v1.8.8 lists 22, all of controller-runtime, workqueue, the AWS SDK and leader election): a missing metric is
 * not proof of a missing metric, and at others it listed names the code no longer registered (v1.0.14 the 0.37 names):
 * a listed metric is not proof of a metric either. docs/guides/alerts.md says which releases that concerns.
 */
public final class MetricsReference {
    /** The page at a tag, in upstream's repository. */
    public static final String PAGE = "website/content/en/docs/reference/metrics.md";

    public static final String OLD_PAGE = "website/content/en/docs/concepts/metrics.md";
    /** The facts file of a minor, beside its release.properties. */
    public static final String FILE = "metrics.txt";

    private static final Pattern GROUP = Pattern.compile("^## (.+?)(?: Metrics)?\\s*$");
    private static final Pattern METRIC = Pattern.compile("^### `([a-zA-Z_:][a-zA-Z0-9_:]*)`\\s*$");
    private static final Pattern STABILITY = Pattern.compile("^- Stability Level: ([A-Z]+)\\s*$");

    private MetricsReference() {}

    /** One documented metric. */
    public record Metric(String name, String group, String stability) {}

    /** The page's path at {@code tag} in the mirror (the newer place, else the older). */
    public static Path pageAt(Path mirror, String tag) {
        Path page = mirror.resolve(tag).resolve(PAGE);
        return Files.isRegularFile(page) ? page : mirror.resolve(tag).resolve(OLD_PAGE);
    }

    /** The facts text of the page read from {@code page}. */
    public static String facts(String tag, String commit, Path page) {
        try {
            String relative = page.toString().endsWith(OLD_PAGE) ? OLD_PAGE : PAGE;
            return facts(tag, commit, relative, Files.readString(page));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The facts text: a header naming tag, commit and page, then one line per metric, sorted by name. */
    public static String facts(String tag, String commit, String pagePath, String page) {
        StringBuilder text = new StringBuilder();
        text.append("# Metrics of Karpenter ")
                .append(tag)
                .append(" (aws/karpenter-provider-aws ")
                .append(commit)
                .append(")\n");
        text.append("# derived by dev.platform.karpenter.upstream.MetricsReference from ")
                .append(pagePath)
                .append('\n');
        text.append("# NAME GROUP STABILITY (\"-\": the page states none); groups with spaces as '_'\n");
        TreeMap<String, Metric> sorted = new TreeMap<>();
        for (Metric metric : metrics(page)) {
            sorted.putIfAbsent(metric.name(), metric);
        }
        for (Metric metric : sorted.values()) {
            text.append(metric.name())
                    .append(' ')
                    .append(metric.group().replace(' ', '_'))
                    .append(' ')
                    .append(metric.stability())
                    .append('\n');
        }
        return text.toString();
    }

    /** The metrics of a page, in its order. */
    public static List<Metric> metrics(String page) {
        List<Metric> metrics = new ArrayList<>();
        String group = "-";
        String name = null;
        String stability = "-";
        for (String line : page.split("\n", -1)) {
            Matcher groupLine = GROUP.matcher(line);
            Matcher metricLine = METRIC.matcher(line);
            Matcher stabilityLine = STABILITY.matcher(line);
            if (metricLine.matches() || groupLine.matches()) {
                if (name != null) {
                    metrics.add(new Metric(name, group, stability));
                    name = null;
                }
                if (metricLine.matches()) {
                    name = metricLine.group(1);
                    stability = "-";
                } else {
                    group = groupLine.group(1).trim();
                }
            } else if (stabilityLine.matches() && name != null) {
                stability = stabilityLine.group(1);
            }
        }
        if (name != null) {
            metrics.add(new Metric(name, group, stability));
        }
        return metrics;
    }

    /** The metric names of a facts text. */
    public static List<String> names(String facts) {
        return facts.lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split(" ", 2)[0])
                .toList();
    }
}
