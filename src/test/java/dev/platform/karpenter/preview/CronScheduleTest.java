package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Budget schedules as robfig/cron v3's standard parser reads them (the library Karpenter calls: ParseStandard, then
 * Next). 2027-01-01 is a Friday; 2027-01-04 a Monday.
 */
class CronScheduleTest {
    private static Instant next(String schedule, String after) throws CronSchedule.InvalidSchedule {
        return CronSchedule.parse(schedule).next(Instant.parse(after)).orElseThrow();
    }

    @Test
    void nextIsStrictlyAfterAndOnWholeMinutes() throws Exception {
        assertThat(next("0 9 * * 1-5", "2027-01-04T08:59:00Z")).isEqualTo("2027-01-04T09:00:00Z");
        assertThat(next("0 9 * * 1-5", "2027-01-04T09:00:00Z")).isEqualTo("2027-01-05T09:00:00Z");
        assertThat(next("0 9 * * 1-5", "2027-01-01T09:00:30Z")).isEqualTo("2027-01-04T09:00:00Z");
        assertThat(next("*/15 * * * *", "2027-01-01T00:14:59.5Z")).isEqualTo("2027-01-01T00:15:00Z");
    }

    /** robfig's rule: both day fields restricted (no star bit): a day matching either; otherwise both. */
    @Test
    void dayOfMonthAndDayOfWeekCombineAsRobfigCombinesThem() throws Exception {
        // 1st of the month OR Monday: from Friday the 1st at noon, Monday the 4th.
        assertThat(next("0 0 1 * 1", "2027-01-01T12:00:00Z")).isEqualTo("2027-01-04T00:00:00Z");
        // Day-of-week unrestricted: only the 1st.
        assertThat(next("0 0 1 * *", "2027-01-01T12:00:00Z")).isEqualTo("2027-02-01T00:00:00Z");
        // "*/2" has a step above one: no star bit, so OR (odd days or Mondays): Sunday the 3rd.
        assertThat(next("0 0 */2 * 1", "2027-01-02T12:00:00Z")).isEqualTo("2027-01-03T00:00:00Z");
        // "*/1" keeps the star bit: AND, Mondays only.
        assertThat(next("0 0 */1 * 1", "2027-01-02T12:00:00Z")).isEqualTo("2027-01-04T00:00:00Z");
        // "?" is a star too.
        assertThat(next("0 0 ? * 1", "2027-01-02T12:00:00Z")).isEqualTo("2027-01-04T00:00:00Z");
        // A range covering every day is not a star: OR with Monday, so every day.
        assertThat(next("0 0 1-31 * 1", "2027-01-02T12:00:00Z")).isEqualTo("2027-01-03T00:00:00Z");
    }

    @Test
    void descriptorsAndNames() throws Exception {
        assertThat(next("@weekly", "2027-01-01T00:00:00Z")).isEqualTo("2027-01-03T00:00:00Z");
        assertThat(next("@daily", "2027-01-01T00:00:00Z")).isEqualTo("2027-01-02T00:00:00Z");
        assertThat(next("@midnight", "2027-01-01T00:00:00Z")).isEqualTo("2027-01-02T00:00:00Z");
        assertThat(next("@hourly", "2027-01-01T00:00:00Z")).isEqualTo("2027-01-01T01:00:00Z");
        assertThat(next("@monthly", "2027-01-01T00:00:00Z")).isEqualTo("2027-02-01T00:00:00Z");
        assertThat(next("@yearly", "2027-01-01T00:00:00Z")).isEqualTo("2028-01-01T00:00:00Z");
        assertThat(next("@annually", "2027-01-01T00:00:00Z")).isEqualTo("2028-01-01T00:00:00Z");
        assertThat(next("30 22 * Jan-MAR sat", "2027-01-01T00:00:00Z")).isEqualTo("2027-01-02T22:30:00Z");
        assertThat(next("0 0 29 2 *", "2027-01-01T00:00:00Z")).isEqualTo("2028-02-29T00:00:00Z");
    }

    /** Lists, steps from a start ("N/step" runs to the field's end), robfig's quirks ("*-5" is "*", empty items). */
    @Test
    void listsAndSteps() throws Exception {
        assertThat(next("5/20 * * * *", "2027-01-01T00:45:00Z")).isEqualTo("2027-01-01T01:05:00Z");
        assertThat(next("10-20/5,50 * * * *", "2027-01-01T00:20:00Z")).isEqualTo("2027-01-01T00:50:00Z");
        assertThat(next("*-5 * * * *", "2027-01-01T00:20:00Z")).isEqualTo("2027-01-01T00:21:00Z");
        assertThat(next("1,,2 * * * *", "2027-01-01T00:01:00Z")).isEqualTo("2027-01-01T00:02:00Z");
    }

    /**
     * Cases of robfig/cron's own tests (spec_test.go TestNext, at commit bc59245), without their seconds field and in
     * UTC: the same next hits. 2012-07-09 is a Monday.
     */
    @Test
    void agreesWithRobfigsOwnCases() throws Exception {
        assertThat(next("0/15 * * * *", "2012-07-09T14:45:00Z")).isEqualTo("2012-07-09T15:00:00Z");
        assertThat(next("0/15 * * * *", "2012-07-09T14:59:59Z")).isEqualTo("2012-07-09T15:00:00Z");
        assertThat(next("20-35/15 * * * *", "2012-07-09T15:45:00Z")).isEqualTo("2012-07-09T16:20:00Z");
        assertThat(next("*/15 * * * *", "2012-07-09T23:46:00Z")).isEqualTo("2012-07-10T00:00:00Z");
        assertThat(next("20-35/15 1/2 */2 * *", "2012-07-09T23:35:51Z")).isEqualTo("2012-07-11T01:20:00Z");
        assertThat(next("20-35/15 * 9-20 Jul *", "2012-07-09T23:35:51Z")).isEqualTo("2012-07-10T00:20:00Z");
        assertThat(next("0 0 9 Apr-Oct ?", "2012-07-09T23:35:00Z")).isEqualTo("2012-08-09T00:00:00Z");
        // Day-of-month "*/5" and Monday, both restricted: the 1st of August (a Wednesday) qualifies by its date.
        assertThat(next("0 0 */5 Apr,Aug,Oct Mon", "2012-07-09T23:35:00Z")).isEqualTo("2012-08-01T00:00:00Z");
        assertThat(next("0 0 */5 Oct Mon", "2012-07-09T23:35:00Z")).isEqualTo("2012-10-01T00:00:00Z");
        assertThat(next("0 0 * Feb Mon", "2012-07-09T23:35:00Z")).isEqualTo("2013-02-04T00:00:00Z");
        // "Mon/2" runs from Monday to Saturday in steps of two: Friday the 1st.
        assertThat(next("0 0 * Feb Mon/2", "2012-07-09T23:35:00Z")).isEqualTo("2013-02-01T00:00:00Z");
        assertThat(next("* * * * *", "2012-12-31T23:59:45Z")).isEqualTo("2013-01-01T00:00:00Z");
        assertThat(next("0 0 29 Feb ?", "2012-07-09T23:35:00Z")).isEqualTo("2016-02-29T00:00:00Z");
    }

    /** No minute ever matches (30 February): robfig's Next gives its zero time, which Karpenter reads as active. */
    @Test
    void aScheduleThatNeverHitsFindsNothing() throws Exception {
        assertThat(CronSchedule.parse("0 0 30 2 *").next(Instant.parse("2027-01-01T00:00:00Z")))
                .isEqualTo(Optional.empty());
    }

    /** What ParseStandard refuses (Karpenter then fails closed): the CRD's pattern admits all but the descriptor. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "0 0 * * 7",
                "0 24 * * *",
                "60 * * * *",
                "0 0 0 * *",
                "0 0 * 13 *",
                "0 0 * * * *",
                "0 0 * *",
                "@every 1h",
                "@dailyx",
                "5-1 * * * *",
                "*/0 * * * *",
                "1-2-3 * * * *",
                "1/2/3 * * * *",
                "x * * * *",
                "xyz",
                "0 60 * * *",
                "0 0 * * XYZ",
                "5 j * * *",
                "CRON_TZ=Europe/Paris 0 9 * * *"
            })
    void refusedAsRobfigRefuses(String schedule) {
        assertThatThrownBy(() -> CronSchedule.parse(schedule)).isInstanceOf(CronSchedule.InvalidSchedule.class);
    }
}
