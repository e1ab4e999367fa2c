package dev.platform.karpenter.preview;

import dev.platform.karpenter.nodepools.manifest.RenderedPool;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pool's disruption budgets as its release reads them (spec.disruption.budgets): from 0.34 on (v1beta1 and v1),
 * the CRD's default of one budget of 10% where none is written; before 0.34 there are none.
 *
 * @param present whether the release has budgets at all
 * @param reasons whether budgets name the reasons they cover (v1)
 * @param budgets in the order written
 */
public record DisruptionBudgets(boolean present, boolean reasons, List<Budget> budgets) {
    /** The reasons a v1 budget may name, in the order reports list them. */
    public static final List<String> REASONS = List.of("Drifted", "Underutilized", "Empty");
    /** The CRD's default budget, applied by the API server where a pool writes none. */
    static final String DEFAULT_NODES = "10%";

    private static final Pattern DURATION = Pattern.compile("^(?:(\\d+)h)?(?:(\\d+)m)?(?:0s)?$");

    /**
     * One budget.
     *
     * @param nodes    "10%" or "5"
     * @param schedule empty: always active
     * @param duration with a schedule, how long each hit keeps it active
     * @param reasons  empty: every reason (the field absent); present: only these (an empty list covers none)
     * @param where    its place, for messages: "spec.disruption.budgets[1]"
     */
    public record Budget(
            String nodes,
            Optional<String> schedule,
            Optional<Duration> duration,
            Optional<List<String>> reasons,
            String where) {
        /** Whether it limits {@code reason}: Karpenter's "reasons nil or containing it". */
        public boolean covers(String reason) {
            return reasons.map(list -> list.contains(reason)).orElse(true);
        }

        /** How many nodes it allows of {@code nodeCount}: a percentage rounded up, as Karpenter scales it. */
        public long allowed(long nodeCount) {
            if (nodes.endsWith("%")) {
                long percent = Long.parseLong(nodes.substring(0, nodes.length() - 1));
                return (percent * nodeCount + 99) / 100;
            }
            return Long.parseLong(nodes);
        }

        public boolean isPercentage() {
            return nodes.endsWith("%");
        }

        public String describe() {
            return "nodes " + nodes
                    + schedule.map(s ->
                                    ", schedule \"" + s + "\" for " + DisruptionBudgets.format(duration.orElseThrow()))
                            .orElse("")
                    + reasons.map(r -> ", reasons " + r).orElse("");
        }
    }

    /** The budgets of {@code pool}'s object, for {@code release}. */
    public static DisruptionBudgets of(RenderedPool pool, KarpenterRelease release) {
        ApiGeneration api = release.apiGeneration();
        if (api == ApiGeneration.V1ALPHA5 || !release.has(KarpenterMinor.Feature.DISRUPTION_BUDGETS)) {
            return new DisruptionBudgets(false, false, List.of());
        }
        Map<String, Object> disruption = PoolFacts.map(pool.object().spec().get("disruption"));
        boolean reasons = api == ApiGeneration.V1;
        List<Budget> budgets = new ArrayList<>();
        if (!disruption.containsKey("budgets")) {
            budgets.add(new Budget(
                    DEFAULT_NODES,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    "spec.disruption.budgets (the CRD's default)"));
        }
        List<Object> written = PoolFacts.list(disruption.get("budgets"));
        for (int i = 0; i < written.size(); i++) {
            Map<String, Object> budget = PoolFacts.map(written.get(i));
            Object schedule = budget.get("schedule");
            Object duration = budget.get("duration");
            Object listed = budget.get("reasons");
            budgets.add(new Budget(
                    String.valueOf(budget.getOrDefault("nodes", DEFAULT_NODES)),
                    Optional.ofNullable(schedule).map(String::valueOf),
                    Optional.ofNullable(duration).map(d -> parseDuration(String.valueOf(d))),
                    reasons && listed != null
                            ? Optional.of(PoolFacts.list(listed).stream()
                                    .map(String::valueOf)
                                    .toList())
                            : Optional.empty(),
                    "spec.disruption.budgets[" + i + "]"));
        }
        return new DisruptionBudgets(true, reasons, List.copyOf(budgets));
    }

    /** A budget's duration as its CRD admits it: "10m", "8h", "1h30m", each optionally ending in "0s". */
    static Duration parseDuration(String written) {
        Matcher matcher = DURATION.matcher(written);
        if (written.isEmpty() || !matcher.matches()) {
            throw new IllegalArgumentException("not a budget duration: " + written);
        }
        long hours = matcher.group(1) == null ? 0 : Long.parseLong(matcher.group(1));
        long minutes = matcher.group(2) == null ? 0 : Long.parseLong(matcher.group(2));
        return Duration.ofHours(hours).plusMinutes(minutes);
    }

    static String format(Duration duration) {
        long hours = duration.toHours();
        long minutes = duration.toMinutesPart();
        return hours == 0 ? minutes + "m" : minutes == 0 ? hours + "h" : hours + "h" + minutes + "m";
    }
}
