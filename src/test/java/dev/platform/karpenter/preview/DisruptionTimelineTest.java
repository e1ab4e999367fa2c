package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The budget timeline against Karpenter's rules (pkg/apis/v1/nodepool.go GetAllowedDisruptionsByReason, Budget
 * IsActive: active at t when the schedule's next hit after t - duration is not after t). 2027-01-04 is a Monday.
 */
class DisruptionTimelineTest {
    private static final Instant MONDAY = Instant.parse("2027-01-04T00:00:00Z");

    private static DisruptionBudgets.Budget always(String nodes, String... reasons) {
        return new DisruptionBudgets.Budget(
                nodes,
                Optional.empty(),
                Optional.empty(),
                reasons.length == 0 ? Optional.empty() : Optional.of(List.of(reasons)),
                "b");
    }

    private static DisruptionBudgets.Budget scheduled(
            String nodes, String schedule, String duration, String... reasons) {
        return new DisruptionBudgets.Budget(
                nodes,
                Optional.of(schedule),
                Optional.of(DisruptionBudgets.parseDuration(duration)),
                reasons.length == 0 ? Optional.empty() : Optional.of(List.of(reasons)),
                "b");
    }

    private static DisruptionTimeline v1(Instant at, long nodes, DisruptionBudgets.Budget... budgets) {
        return DisruptionTimeline.of(new DisruptionBudgets(true, true, List.of(budgets)), at, OptionalLong.of(nodes));
    }

    /** Windows as "from..to D/U/E" lines, "-" for no limit. */
    private static List<String> lines(DisruptionTimeline timeline) {
        return timeline.windows().stream()
                .map(window -> window.from() + ".." + window.to() + " "
                        + String.join(
                                "/",
                                DisruptionBudgets.REASONS.stream()
                                        .map(reason -> window.allowed().get(reason))
                                        .map(a -> a.unlimited() ? "-" : a.toString())
                                        .toList()))
                .toList();
    }

    @Test
    void theDefaultBudgetIsTenPercentRoundedUpAtEveryMinute() {
        assertThat(lines(v1(MONDAY, 11, always("10%"))))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 2/2/2");
        assertThat(lines(v1(MONDAY, 1, always("1%"))))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 1/1/1");
        assertThat(lines(v1(MONDAY, 500, always("0%"))))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 0/0/0");
        assertThat(lines(v1(MONDAY, 0, always("100%"))))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 0/0/0");
    }

    /** Outside every scheduled window there is no limit; reasons narrow a budget; the smallest active one wins. */
    @Test
    void scheduledBudgetsByReasonAndNoLimitOutside() {
        DisruptionTimeline timeline = v1(
                MONDAY,
                50,
                scheduled("0", "0 9 * * mon-fri", "8h", "Drifted", "Underutilized"),
                scheduled("20%", "0 0 * * *", "24h", "Empty"));
        List<String> lines = lines(timeline);
        assertThat(lines.get(0)).isEqualTo("2027-01-04T00:00:00Z..2027-01-04T09:00:00Z -/-/10");
        assertThat(lines.get(1)).isEqualTo("2027-01-04T09:00:00Z..2027-01-04T17:00:00Z 0/0/10");
        assertThat(lines.get(2)).isEqualTo("2027-01-04T17:00:00Z..2027-01-05T09:00:00Z -/-/10");
        // Five working days, each a closed and an open stretch, then the weekend to the end.
        assertThat(lines).hasSize(11);
        assertThat(lines.get(10)).isEqualTo("2027-01-08T17:00:00Z..2027-01-11T00:00:00Z -/-/10");
    }

    /** Hits before the stretch count: at 10:00 a window that opened at 09:00 for eight hours is open. */
    @Test
    void aWindowOpenedBeforeAtIsOpenAtAt() {
        DisruptionTimeline timeline = v1(Instant.parse("2027-01-04T10:00:30Z"), 10, scheduled("0", "0 9 * * *", "8h"));
        assertThat(timeline.from()).isEqualTo("2027-01-04T10:00:00Z");
        assertThat(lines(timeline).get(0)).isEqualTo("2027-01-04T10:00:00Z..2027-01-04T17:00:00Z 0/0/0");
        // A weekly window opened on Sunday and lasting 36h is still open on Monday morning.
        assertThat(lines(v1(MONDAY, 10, scheduled("1", "@weekly", "36h"))).get(0))
                .isEqualTo("2027-01-04T00:00:00Z..2027-01-04T12:00:00Z 1/1/1");
    }

    /** Overlapping schedules: the smaller value while both are active; one schedule's hits joined where they overlap. */
    @Test
    void overlappingSchedules() {
        assertThat(lines(v1(MONDAY, 100, scheduled("3", "0 8 * * *", "4h"), scheduled("1", "0 10 * * *", "4h")))
                        .subList(0, 4))
                .containsExactly(
                        "2027-01-04T00:00:00Z..2027-01-04T08:00:00Z -/-/-",
                        "2027-01-04T08:00:00Z..2027-01-04T10:00:00Z 3/3/3",
                        "2027-01-04T10:00:00Z..2027-01-04T14:00:00Z 1/1/1",
                        "2027-01-04T14:00:00Z..2027-01-05T08:00:00Z -/-/-");
        // Hits every two hours, each active three hours: active throughout.
        assertThat(lines(v1(MONDAY, 100, scheduled("2", "0 */2 * * *", "3h"))))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 2/2/2");
    }

    /** An empty reasons list covers no reason (Go's nil check); a schedule that never hits is always active. */
    @Test
    void emptyReasonsAndSchedulesThatNeverHit() {
        assertThat(lines(v1(MONDAY, 10, always("0", new String[0]), always("1"))))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 0/0/0");
        DisruptionBudgets.Budget coversNothing =
                new DisruptionBudgets.Budget("0", Optional.empty(), Optional.empty(), Optional.of(List.of()), "b");
        assertThat(lines(v1(MONDAY, 10, coversNothing)))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z -/-/-");
        assertThat(lines(v1(MONDAY, 10, scheduled("0", "0 0 30 2 *", "1h", "Drifted"))))
                .containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 0/-/-");
    }

    /**
     * A schedule Karpenter cannot parse fails closed for the whole pool: no disruption for any reason, whatever
     * reasons that budget names (Karpenter evaluates every budget before it filters by reason).
     */
    @Test
    void anUnparsableScheduleFailsClosed() {
        DisruptionTimeline timeline = v1(MONDAY, 10, scheduled("5", "0 0 * * 7", "1h", "Empty"));
        assertThat(lines(timeline)).containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z 0/0/0");
        assertThat(timeline.invalid()).singleElement().asString().contains("0 0 * * 7");
    }

    /** Without a node count, percentages stay as written. */
    @Test
    void percentagesOfAnUnknownCount() {
        DisruptionTimeline timeline = DisruptionTimeline.of(
                new DisruptionBudgets(true, true, List.of(always("10%"), always("5", "Drifted"))),
                MONDAY,
                OptionalLong.empty());
        assertThat(lines(timeline)).containsExactly("2027-01-04T00:00:00Z..2027-01-11T00:00:00Z min(5, 10%)/10%/10%");
    }

    /** Drift rollout: one window of two hours a day allowing 2 nodes, 10 minutes per node: 24 nodes a day. */
    @Test
    void rolloutWithinWindows() {
        DisruptionTimeline timeline = v1(MONDAY, 30, scheduled("0", "0 2 * * *", "22h", "Drifted"));
        // Windows 00:00-02:00 daily allow no limit for drift: all 30 at once.
        assertThat(timeline.rollout(30, Duration.ofMinutes(10))).contains(Duration.ofMinutes(10));
        DisruptionTimeline narrow =
                v1(MONDAY, 100, always("2", "Drifted"), scheduled("0", "0 2 * * *", "22h", "Drifted"));
        // 12 passes of 2 nodes on day one, 24 nodes a day: 100 nodes need day five, 4 nodes into it (two passes).
        assertThat(narrow.rollout(100, Duration.ofMinutes(10)))
                .contains(Duration.ofDays(4).plusMinutes(20));
        assertThat(narrow.rollout(200, Duration.ofMinutes(10))).isEmpty();
        assertThat(v1(MONDAY, 10, always("0", "Drifted")).neverAllows("Drifted"))
                .isTrue();
    }

    /**
     * Against an independent minute-by-minute evaluation: for every minute, each budget active when a minute in
     * (t - duration, t] matches its five fields (numbers, ranges and lists only, day fields ORed when both are
     * restricted), the smallest active value covering the reason.
     */
    @Test
    void matchesAMinuteByMinuteEvaluation() {
        List<DisruptionBudgets.Budget> budgets = List.of(
                always("10%", "Underutilized"),
                scheduled("0", "30 8-16 * * 1,3,5", "45m", "Drifted"),
                scheduled("3", "0 22 5,6,7 * 2", "5h"),
                scheduled("25%", "15 */3 * * *", "1h30m", "Empty", "Drifted"));
        for (Instant at :
                List.of(MONDAY, Instant.parse("2027-02-28T21:47:00Z"), Instant.parse("2027-12-29T03:00:00Z"))) {
            DisruptionTimeline timeline =
                    DisruptionTimeline.of(new DisruptionBudgets(true, true, budgets), at, OptionalLong.of(37));
            int stretch = (int) DisruptionTimeline.STRETCH.toMinutes();
            List<boolean[]> active = budgets.stream()
                    .map(budget -> activeByBruteForce(budget, at, stretch))
                    .toList();
            for (int minute = 0; minute < stretch; minute++) {
                Instant t = at.plus(Duration.ofMinutes(minute));
                for (String reason : DisruptionBudgets.REASONS) {
                    Long expected = null;
                    for (int b = 0; b < budgets.size(); b++) {
                        DisruptionBudgets.Budget budget = budgets.get(b);
                        if (budget.covers(reason) && active.get(b)[minute]) {
                            long value = budget.allowed(37);
                            expected = expected == null ? value : Math.min(expected, value);
                        }
                    }
                    DisruptionTimeline.Allowance actual = timeline.allowedAt(t, reason);
                    assertThat(actual.unlimited() ? null : actual.nodes().getAsLong())
                            .as("%s %s", t, reason)
                            .isEqualTo(expected);
                }
            }
        }
    }

    /** Per minute of the stretch from {@code at}: whether a minute in (t - duration, t] matches the fields. */
    private static boolean[] activeByBruteForce(DisruptionBudgets.Budget budget, Instant at, int stretch) {
        boolean[] active = new boolean[stretch];
        if (budget.schedule().isEmpty()) {
            Arrays.fill(active, true);
            return active;
        }
        String[] fields = budget.schedule().get().split(" ");
        Set<Integer> minutes = values(fields[0], 0, 59);
        Set<Integer> hours = values(fields[1], 0, 23);
        Set<Integer> dom = values(fields[2], 1, 31);
        Set<Integer> months = values(fields[3], 1, 12);
        Set<Integer> dow = values(fields[4], 0, 6);
        boolean bothRestricted = !fields[2].equals("*") && !fields[4].equals("*");
        int duration = (int) budget.duration().orElseThrow().toMinutes();
        for (int offset = -duration + 1; offset < stretch; offset++) {
            LocalDateTime m = LocalDateTime.ofInstant(at.plus(Duration.ofMinutes(offset)), ZoneOffset.UTC);
            boolean domOk = dom.contains(m.getDayOfMonth());
            boolean dowOk = dow.contains(m.getDayOfWeek().getValue() % 7);
            if (minutes.contains(m.getMinute())
                    && hours.contains(m.getHour())
                    && months.contains(m.getMonthValue())
                    && (bothRestricted ? domOk || dowOk : domOk && dowOk)) {
                for (int t = Math.max(0, offset); t < Math.min(stretch, offset + duration); t++) {
                    active[t] = true;
                }
            }
        }
        return active;
    }

    private static Set<Integer> values(String field, int min, int max) {
        Set<Integer> values = new HashSet<>();
        for (String part : field.split(",")) {
            int step = part.contains("/") ? Integer.parseInt(part.substring(part.indexOf('/') + 1)) : 1;
            String range = part.contains("/") ? part.substring(0, part.indexOf('/')) : part;
            int low = range.equals("*") ? min : Integer.parseInt(range.split("-")[0]);
            int high = range.equals("*") ? max : range.contains("-") ? Integer.parseInt(range.split("-")[1]) : low;
            for (int v = low; v <= high; v += step) {
                values.add(v);
            }
        }
        return values;
    }
}
