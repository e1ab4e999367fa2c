package dev.platform.karpenter.preview;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.config.SettingsCatalogue;
import dev.platform.karpenter.nodepools.manifest.RenderedNodeClass;
import dev.platform.karpenter.nodepools.manifest.RenderedPool;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterRelease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * When a pool may replace nodes: its budget timeline over the stretch, the node count it used and where that came
 * from, how long a drift rollout of its nodes takes within its windows, and the warnings about its disruption.
 *
 * @param nodeCountSource "--nodes", "max nodes" (what its limits allow), or "unknown" (no limit bounds its nodes)
 * @param rollout         how long replacing all its nodes for drift takes; empty where it does not finish within the
 *                        stretch or the node count is unknown
 * @param instead         for releases without budgets, what limits disruption instead; empty otherwise
 */
public record PoolDisruption(
        DisruptionTimeline timeline,
        String nodeCountSource,
        Optional<Duration> rollout,
        Duration replace,
        Optional<String> instead,
        List<String> warnings) {
    /** How long one node's replacement takes unless --replace-minutes says otherwise. */
    public static final Duration DEFAULT_REPLACE = Duration.ofMinutes(10);

    /** What drifted and expired nodes obey before budgets (0.30 to 0.33). */
    static final String WITHOUT_BUDGETS = "no disruption budgets before Karpenter 0.34: disruption runs at any minute,"
            + " one command at a time (a drifted or expired node is replaced one at a time, empty ones together;"
            + " consolidation deletes or replaces its candidates in one command)";

    /**
     * What the timeline is computed for.
     *
     * @param at      the stretch's start (to the minute)
     * @param nodes   the node count (--nodes); empty: the most nodes each pool's limits allow
     * @param replace how long replacing one node takes (--replace-minutes)
     */
    public record Options(Instant at, OptionalLong nodes, Duration replace) {
        public static Options now() {
            return new Options(Instant.now(), OptionalLong.empty(), DEFAULT_REPLACE);
        }
    }

    static PoolDisruption of(
            RenderedPool pool,
            String setting,
            KarpenterRelease release,
            Optional<Long> maxNodes,
            boolean driftOn,
            Options options) {
        DisruptionBudgets budgets = DisruptionBudgets.of(pool, release);
        OptionalLong nodes = options.nodes().isPresent()
                ? options.nodes()
                : maxNodes.map(OptionalLong::of).orElse(OptionalLong.empty());
        String source = options.nodes().isPresent() ? "--nodes" : maxNodes.isPresent() ? "max nodes" : "unknown";
        DisruptionTimeline timeline = DisruptionTimeline.of(budgets, options.at(), nodes);
        Optional<Duration> rollout =
                nodes.isPresent() ? timeline.rollout(nodes.getAsLong(), options.replace()) : Optional.empty();
        List<String> warnings = new ArrayList<>();
        String name = "pool \"" + pool.name() + "\"";
        timeline.invalid()
                .forEach(invalid -> warnings.add(name + ": " + setting + "." + invalid.replaceFirst("^spec\\.", "")
                        + ": Karpenter cannot parse it and allows no disruption of this pool for any reason"));
        if (driftOn) {
            Optional<String> following = followsNewAmis(pool.nodeClass(), release);
            if (following.isPresent() && timeline.sometimesAllows("Drifted")) {
                warnings.add(name + ": its node class \"" + pool.nodeClass().name() + "\" follows new AMIs ("
                        + following.get() + ") and its budgets allow Drifted"
                        + (budgets.present() ? "" : " (no budgets before 0.34)")
                        + ": each AMI AWS publishes replaces every node without any change here (pin the AMI:"
                        + " docs/guides/disruption.md)");
            }
            if (timeline.neverAllows("Drifted")) {
                warnings.add(name + ": " + setting + ".disruption.budgets allow no Drifted disruption at any minute"
                        + " of the seven days from " + timeline.from() + ": node class and pool changes never roll"
                        + " out");
            } else if (nodes.isPresent() && rollout.isEmpty()) {
                warnings.add(name + ": replacing its " + nodes.getAsLong() + " nodes (" + source + ") for drift at "
                        + options.replace().toMinutes() + " minutes each takes more than seven days within "
                        + (budgets.present() ? "the windows of " + setting + ".disruption.budgets" : "one at a time")
                        + " (docs/guides/disruption.md)");
            }
        }
        if (release.apiGeneration() == ApiGeneration.V1) {
            Map<String, Object> template = PoolFacts.map(
                    PoolFacts.map(pool.object().spec().get("template")).get("spec"));
            Object expireAfter = template.get("expireAfter");
            if (!"Never".equals(expireAfter) && !template.containsKey("terminationGracePeriod")) {
                boolean inSpec = PoolFacts.map(
                                PoolFacts.map(pool.settings().spec().get("template"))
                                        .get("spec"))
                        .containsKey("expireAfter");
                String where = inSpec
                        ? setting + ".template.spec.expireAfter"
                        : pool.settings()
                                .written(SettingsCatalogue.EXPIRE_AFTER)
                                .orElse(SettingsCatalogue.EXPIRE_AFTER.key() + " (default)");
                warnings.add(name + ": " + where + " = "
                        + ConfigException.quote(String.valueOf(expireAfter == null ? "720h" : expireAfter))
                        + " without " + setting + ".template.spec.terminationGracePeriod: expiry replaces nodes"
                        + " whatever the budgets say, and a pod disruption budget or do-not-disrupt pod can hold an"
                        + " expired node forever");
            }
        }
        return new PoolDisruption(
                timeline,
                source,
                rollout,
                options.replace(),
                budgets.present() ? Optional.empty() : Optional.of(WITHOUT_BUDGETS),
                List.copyOf(warnings));
    }

    /**
     * Where a node class selects AMIs that change without a change here, for messages; empty where it pins them (AMI
     * ids, an alias with a version, an exact name). An alias "@latest", a name pattern, tags or an SSM parameter follow
     * what is published; so does a v1beta1 or v1alpha5 class without a selector (the family's newest EKS AMI).
     */
    static Optional<String> followsNewAmis(RenderedNodeClass nodeClass, KarpenterRelease release) {
        if (nodeClass == null) {
            return Optional.empty();
        }
        Map<String, Object> spec = nodeClass.object().spec();
        String setting = nodeClass.settings().specSetting();
        if (release.apiGeneration() == ApiGeneration.V1ALPHA5) {
            Map<String, Object> selector = PoolFacts.map(spec.get("amiSelector"));
            if (selector.isEmpty()) {
                return Optional.of("no " + setting + ".amiSelector: the newest EKS AMI of "
                        + nodeClass.family().setting());
            }
            return selector.containsKey("aws-ids")
                    ? Optional.empty()
                    : Optional.of(setting + ".amiSelector " + selector.keySet());
        }
        List<Object> terms = PoolFacts.list(spec.get("amiSelectorTerms"));
        if (terms.isEmpty()) {
            return Optional.of("no " + setting + ".amiSelectorTerms: the newest EKS AMI of "
                    + nodeClass.family().setting());
        }
        for (int i = 0; i < terms.size(); i++) {
            Map<String, Object> term = PoolFacts.map(terms.get(i));
            if (term.containsKey("id")) {
                continue;
            }
            Object alias = term.get("alias");
            if (alias != null) {
                if (String.valueOf(alias).endsWith("@" + PoolsAndNodeClasses.LATEST_AMI)) {
                    boolean inSpec = !PoolFacts.list(nodeClass.settings().spec().get("amiSelectorTerms"))
                            .isEmpty();
                    return Optional.of(
                            inSpec
                                    ? setting + ".amiSelectorTerms[" + i + "].alias = "
                                            + ConfigException.quote(String.valueOf(alias))
                                    : nodeClass
                                                    .settings()
                                                    .written(SettingsCatalogue.AMI_VERSION)
                                                    .orElse(SettingsCatalogue.AMI_VERSION.key())
                                            + " = \"latest\", alias " + ConfigException.quote(String.valueOf(alias)));
                }
                continue;
            }
            Object amiName = term.get("name");
            if (amiName != null && !String.valueOf(amiName).contains("*") && !term.containsKey("tags")) {
                continue;
            }
            return Optional.of(setting + ".amiSelectorTerms[" + i + "] selects by " + String.join("/", term.keySet())
                    + ": the newest AMI it matches");
        }
        return Optional.empty();
    }

    /** The node count the timeline used, if known. */
    public Optional<Long> nodeCount() {
        return timeline.nodes().isPresent() ? Optional.of(timeline.nodes().getAsLong()) : Optional.empty();
    }

    /**
     * When the budgets let drift replace nodes, in one phrase: "at any minute, up to 5 at once", "in 40 of 168
     * hours, first at 2027-01-04T17:00Z, up to 5 at once", "never in the seven days from ...".
     */
    public String whenDrifted() {
        if (!timeline.budgets().present()) {
            return "at any minute, one at a time (no budgets before 0.34)";
        }
        if (timeline.neverAllows("Drifted")) {
            return "never in the seven days from " + PreviewReport.minute(timeline.from()) + " (no budget allows it)";
        }
        long minutes = 0;
        Instant first = null;
        String most = null;
        long mostNodes = -1;
        for (DisruptionTimeline.Window window : timeline.windows()) {
            DisruptionTimeline.Allowance allowed = window.allowed().get("Drifted");
            if (allowed.none()) {
                continue;
            }
            minutes += Duration.between(window.from(), window.to()).toMinutes();
            if (first == null) {
                first = window.from();
            }
            long nodes = allowed.nodes().isPresent() ? allowed.nodes().getAsLong() : Long.MAX_VALUE;
            if (nodes > mostNodes) {
                mostNodes = nodes;
                most = allowed.unlimited() ? "no limit at once" : "up to " + allowed + " at once";
            }
        }
        long stretch = DisruptionTimeline.STRETCH.toMinutes();
        String when = minutes == stretch
                ? "at any minute"
                : "in " + hours(minutes) + " of " + hours(stretch) + " hours, first at " + PreviewReport.minute(first);
        return when + ", " + most;
    }

    private static String hours(long minutes) {
        return minutes % 60 == 0 ? String.valueOf(minutes / 60) : String.format("%.1f", minutes / 60.0);
    }
}
