package dev.platform.karpenter.preview;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * How many of a pool's nodes Karpenter may disrupt at once, for each reason, over a stretch of time, as its
 * controller computes it at each minute (kubernetes-sigs/karpenter pkg/apis/v1/nodepool.go,
 * GetAllowedDisruptionsByReason, and v1beta1's GetAllowedDisruptions from v0.34): the smallest value among the budgets
 * active then that cover the reason; a percentage of the node count rounded up; no limit where none is active. A
 * scheduled budget is active from each hit of its schedule (UTC) for its duration, which Karpenter checks by asking
 * whether the schedule's next hit after "now minus duration" is not after now: so hits before the stretch count,
 * and a schedule that never hits leaves the budget active at every minute. A schedule Karpenter cannot parse fails
 * closed: the budget allows no disruption.
 *
 * @param nodes     the node count percentages apply to; empty where it is unknown (a pool without limits, no
 *                  --nodes): a percentage is then shown as written
 * @param windows   contiguous from {@code from} to {@code to}, neighbours differing
 * @param invalid   the budgets whose schedule Karpenter cannot parse, with the reason
 */
public record DisruptionTimeline(
        DisruptionBudgets budgets,
        OptionalLong nodes,
        Instant from,
        Instant to,
        List<Window> windows,
        List<String> invalid) {
    /** The stretch the preview looks at. */
    public static final Duration STRETCH = Duration.ofDays(7);

    /**
     * One stretch with the same allowance.
     *
     * @param allowed per reason (DisruptionBudgets#REASONS): a number of nodes; empty for no limit; or, where the node
     *                count is unknown, the budgets as written ("10%", "min(5, 10%)")
     */
    public record Window(Instant from, Instant to, Map<String, Allowance> allowed) {}

    /** An allowance: a number of nodes, no limit, or percentages of an unknown node count. */
    public record Allowance(OptionalLong nodes, Optional<String> unresolved) {
        static final Allowance UNLIMITED = new Allowance(OptionalLong.empty(), Optional.empty());

        static Allowance of(long nodes) {
            return new Allowance(OptionalLong.of(nodes), Optional.empty());
        }

        public boolean unlimited() {
            return nodes.isEmpty() && unresolved.isEmpty();
        }

        /** Whether it allows no disruption at all. */
        public boolean none() {
            return nodes.isPresent() && nodes.getAsLong() == 0;
        }

        /** The JSON value: a number, null, or the unresolved text. */
        public Object json() {
            return nodes.isPresent() ? (Object) nodes.getAsLong() : unresolved.orElse(null);
        }

        @Override
        public String toString() {
            return nodes.isPresent() ? String.valueOf(nodes.getAsLong()) : unresolved.orElse("no limit");
        }
    }

    /** The timeline of {@code budgets} over the stretch from {@code at} (to the minute), for {@code nodes} nodes. */
    public static DisruptionTimeline of(DisruptionBudgets budgets, Instant at, OptionalLong nodes) {
        Instant from = at.truncatedTo(ChronoUnit.MINUTES);
        Instant to = from.plus(STRETCH);
        if (!budgets.present()) {
            return new DisruptionTimeline(budgets, nodes, from, to, List.of(), List.of());
        }
        List<String> invalid = new ArrayList<>();
        // Per budget: when it is active, as sorted, disjoint [start, end) pairs within the stretch; null: always.
        List<List<Instant[]>> active = new ArrayList<>();
        List<Boolean> failsClosed = new ArrayList<>();
        TreeSet<Instant> bounds = new TreeSet<>(List.of(from, to));
        for (DisruptionBudgets.Budget budget : budgets.budgets()) {
            if (budget.schedule().isEmpty()) {
                active.add(null);
                failsClosed.add(false);
                continue;
            }
            try {
                CronSchedule schedule = CronSchedule.parse(budget.schedule().get());
                List<Instant[]> intervals =
                        activeIntervals(schedule, budget.duration().orElse(Duration.ZERO), from, to);
                intervals.forEach(interval -> {
                    bounds.add(interval[0]);
                    bounds.add(interval[1]);
                });
                active.add(intervals);
                failsClosed.add(false);
            } catch (CronSchedule.InvalidSchedule e) {
                invalid.add(budget.where() + " schedule \"" + budget.schedule().get() + "\": " + e.getMessage());
                active.add(null);
                failsClosed.add(true);
            }
        }
        List<Window> windows = new ArrayList<>();
        List<Instant> points = new ArrayList<>(bounds);
        for (int i = 0; i + 1 < points.size(); i++) {
            Instant start = points.get(i);
            Map<String, Allowance> allowed = new LinkedHashMap<>();
            for (String reason : DisruptionBudgets.REASONS) {
                allowed.put(reason, allowance(budgets, active, failsClosed, start, reason, nodes));
            }
            Window last = windows.isEmpty() ? null : windows.get(windows.size() - 1);
            if (last != null && last.allowed().equals(allowed)) {
                windows.set(windows.size() - 1, new Window(last.from(), points.get(i + 1), last.allowed()));
            } else {
                windows.add(new Window(start, points.get(i + 1), Map.copyOf(allowed)));
            }
        }
        return new DisruptionTimeline(budgets, nodes, from, to, List.copyOf(windows), List.copyOf(invalid));
    }

    /**
     * When a budget with {@code schedule} and {@code duration} is active within [from, to): from each hit h with
     * h + duration after {@code from}, to h + duration, overlapping ones joined.
     */
    static List<Instant[]> activeIntervals(CronSchedule schedule, Duration duration, Instant from, Instant to) {
        List<Instant[]> intervals = new ArrayList<>();
        // The first hit whose window reaches into the stretch: Karpenter's Next(now - duration).
        Optional<Instant> hit = schedule.next(from.minus(duration));
        if (hit.isEmpty()) {
            // robfig's zero time is not after now: the budget is active throughout.
            intervals.add(new Instant[] {from, to});
            return intervals;
        }
        while (hit.isPresent() && hit.get().isBefore(to)) {
            Instant start = hit.get().isBefore(from) ? from : hit.get();
            Instant end = hit.get().plus(duration);
            if (end.isAfter(to)) {
                end = to;
            }
            if (start.isBefore(end)) {
                Instant[] last = intervals.isEmpty() ? null : intervals.get(intervals.size() - 1);
                if (last != null && !start.isAfter(last[1])) {
                    if (end.isAfter(last[1])) {
                        last[1] = end;
                    }
                } else {
                    intervals.add(new Instant[] {start, end});
                }
            }
            if (!end.isBefore(to)) {
                break; // later hits only extend a window that already reaches the end
            }
            Optional<Instant> following = schedule.next(hit.get());
            if (following.isEmpty()) {
                // No later hit within robfig's horizon: from the end of this window, the budget counts as active.
                Instant after = end.isBefore(to) ? end : to;
                if (after.isBefore(to)) {
                    intervals.add(new Instant[] {after, to});
                }
                break;
            }
            hit = following;
        }
        return intervals;
    }

    private static Allowance allowance(
            DisruptionBudgets budgets,
            List<List<Instant[]>> active,
            List<Boolean> failsClosed,
            Instant at,
            String reason,
            OptionalLong nodes) {
        long least = Long.MAX_VALUE;
        TreeSet<String> percentages = new TreeSet<>();
        for (int i = 0; i < budgets.budgets().size(); i++) {
            DisruptionBudgets.Budget budget = budgets.budgets().get(i);
            // Karpenter evaluates every budget before it looks at reasons, and one it cannot parse makes the whole
            // pool's answer an error, which it reads as no disruption for any reason (v1 nodepool.go,
            // GetAllowedDisruptionsByReason and MustGetAllowedDisruptions).
            if (failsClosed.get(i)) {
                least = 0;
                continue;
            }
            if (!budget.covers(reason)) {
                continue;
            }
            if (active.get(i) != null && !activeAt(active.get(i), at)) {
                continue;
            }
            if (nodes.isPresent() || !budget.isPercentage()) {
                least = Math.min(least, budget.allowed(nodes.orElse(0)));
            } else if (budget.allowed(1) == 0) {
                least = 0; // 0% is none of any count
            } else {
                percentages.add(budget.nodes());
            }
        }
        if (least == 0 || percentages.isEmpty()) {
            return least == Long.MAX_VALUE ? Allowance.UNLIMITED : Allowance.of(least);
        }
        List<String> terms = new ArrayList<>();
        if (least != Long.MAX_VALUE) {
            terms.add(String.valueOf(least));
        }
        terms.addAll(percentages);
        return new Allowance(
                OptionalLong.empty(),
                Optional.of(terms.size() == 1 ? terms.get(0) : "min(" + String.join(", ", terms) + ")"));
    }

    private static boolean activeAt(List<Instant[]> intervals, Instant at) {
        for (Instant[] interval : intervals) {
            if (!at.isBefore(interval[0]) && at.isBefore(interval[1])) {
                return true;
            }
        }
        return false;
    }

    /** The allowance for {@code reason} at {@code at}, a minute within the stretch. */
    public Allowance allowedAt(Instant at, String reason) {
        for (Window window : windows) {
            if (!at.isBefore(window.from()) && at.isBefore(window.to())) {
                return window.allowed().get(reason);
            }
        }
        throw new IllegalArgumentException(at + " is outside " + from + ".." + to);
    }

    /** Whether {@code reason} is allowed no node at every minute of the stretch (budgets present). */
    public boolean neverAllows(String reason) {
        return budgets.present()
                && windows.stream().allMatch(w -> w.allowed().get(reason).none());
    }

    /** Whether some minute allows {@code reason} at least one node. */
    public boolean sometimesAllows(String reason) {
        return !neverAllows(reason);
    }

    /**
     * How long replacing every one of {@code count} nodes for drift takes from {@code from}, each replacement taking
     * {@code replace}: empty where it does not finish within the stretch. The model: Karpenter's drift method starts
     * one replacement per pass while fewer nodes are being disrupted than the budget allows at that minute (upstream
     * pkg/controllers/disruption/drift.go and helpers.go BuildDisruptionBudgetMapping: the allowance less the nodes
     * already disrupting), a pass every few seconds, so within a minute it fills the budget; a replacement started
     * finishes even after its window closes. Without budgets (before 0.34) one node at a time.
     */
    public Optional<Duration> rollout(long count, Duration replace) {
        long stretchMinutes = STRETCH.toMinutes();
        long replaceMinutes = Math.max(1, replace.toMinutes());
        long[] finishing = new long[(int) (stretchMinutes + replaceMinutes + 1)];
        long remaining = count;
        long inFlight = 0;
        int window = 0;
        for (int minute = 0; minute < stretchMinutes; minute++) {
            inFlight -= finishing[minute];
            if (remaining == 0 && inFlight == 0) {
                return Optional.of(Duration.ofMinutes(minute));
            }
            long allowed;
            if (!budgets.present()) {
                allowed = 1;
            } else {
                Instant now = from.plus(Duration.ofMinutes(minute));
                while (!now.isBefore(windows.get(window).to())) {
                    window++;
                }
                Allowance allowance = windows.get(window).allowed().get("Drifted");
                allowed = allowance.nodes().isPresent()
                        ? allowance.nodes().getAsLong()
                        : allowance.unlimited() ? Long.MAX_VALUE : 1;
            }
            long start = Math.min(remaining, Math.max(0, allowed - inFlight));
            remaining -= start;
            inFlight += start;
            finishing[(int) (minute + replaceMinutes)] += start;
        }
        inFlight -= finishing[(int) stretchMinutes];
        return remaining == 0 && inFlight == 0 ? Optional.of(STRETCH) : Optional.empty();
    }
}
