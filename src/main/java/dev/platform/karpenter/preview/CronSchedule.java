package dev.platform.karpenter.preview;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A disruption budget's schedule read as Karpenter reads it: robfig/cron v3's standard parser (five fields, or an
 * {@code @} descriptor), in UTC. Written here rather than taken from a cron library because two of robfig's rules
 * decide which minutes a budget covers and general cron libraries differ on them: day-of-month and day-of-week are
 * combined with AND when either field is unrestricted (it carries robfig's "star bit": {@code *}, {@code ?} or a
 * star with step 1) and with OR when both are restricted; and {@link #next} finds nothing when no minute matches
 * within five years (Karpenter then counts the budget as active at every minute).
 */
public final class CronSchedule {
    private static final String STAR_WORDS = "*?";
    private static final Map<String, Integer> MONTHS = Map.ofEntries(
            Map.entry("jan", 1),
            Map.entry("feb", 2),
            Map.entry("mar", 3),
            Map.entry("apr", 4),
            Map.entry("may", 5),
            Map.entry("jun", 6),
            Map.entry("jul", 7),
            Map.entry("aug", 8),
            Map.entry("sep", 9),
            Map.entry("oct", 10),
            Map.entry("nov", 11),
            Map.entry("dec", 12));
    private static final Map<String, Integer> WEEKDAYS =
            Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4, "fri", 5, "sat", 6);
    private static final Map<String, String> DESCRIPTORS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");
    /** How far {@link #next} looks, as robfig's Next does: to the end of the fifth year after the start's. */
    private static final int YEARS_SEARCHED = 5;

    /** One field's allowed values as bits, and whether it was written unrestricted. */
    private record Field(long bits, boolean star) {
        boolean has(int value) {
            return (bits & (1L << value)) != 0;
        }
    }

    private final String text;
    private final Field minutes;
    private final Field hours;
    private final Field daysOfMonth;
    private final Field months;
    private final Field daysOfWeek;

    private CronSchedule(String text, List<Field> fields) {
        this.text = text;
        this.minutes = fields.get(0);
        this.hours = fields.get(1);
        this.daysOfMonth = fields.get(2);
        this.months = fields.get(3);
        this.daysOfWeek = fields.get(4);
    }

    /** Thrown for a schedule robfig's standard parser refuses; Karpenter then allows no disruption (fails closed). */
    public static final class InvalidSchedule extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidSchedule(String message) {
            super(message);
        }
    }

    public static CronSchedule parse(String schedule) throws InvalidSchedule {
        String trimmed = schedule.strip();
        if (trimmed.isEmpty()) {
            throw new InvalidSchedule("empty schedule");
        }
        if (trimmed.startsWith("TZ=") || trimmed.startsWith("CRON_TZ=")) {
            // Karpenter puts "TZ=UTC " before the schedule, and robfig takes only one zone.
            throw new InvalidSchedule(
                    "a time zone in the schedule (Karpenter evaluates it in UTC and refuses another)");
        }
        String expression = trimmed;
        if (trimmed.startsWith("@")) {
            expression = DESCRIPTORS.get(trimmed);
            if (expression == null) {
                throw new InvalidSchedule("unknown descriptor " + trimmed);
            }
        }
        String[] parts = expression.split("\\s+");
        if (parts.length != 5) {
            throw new InvalidSchedule("expected exactly 5 fields, found " + parts.length);
        }
        return new CronSchedule(
                schedule,
                List.of(
                        field(parts[0], 0, 59, Map.of()),
                        field(parts[1], 0, 23, Map.of()),
                        field(parts[2], 1, 31, Map.of()),
                        field(parts[3], 1, 12, MONTHS),
                        field(parts[4], 0, 6, WEEKDAYS)));
    }

    private static Field field(String written, int min, int max, Map<String, Integer> names) throws InvalidSchedule {
        long bits = 0;
        boolean star = false;
        for (String part : written.split(",", -1)) {
            if (part.isEmpty()) {
                continue; // robfig splits the list dropping empty items
            }
            String[] rangeAndStep = part.split("/", -1);
            if (rangeAndStep.length > 2) {
                throw new InvalidSchedule("too many slashes: " + part);
            }
            String[] lowAndHigh = rangeAndStep[0].split("-", -1);
            int start;
            int end;
            boolean partStar = false;
            if (STAR_WORDS.contains(lowAndHigh[0]) && lowAndHigh[0].length() == 1) {
                // robfig reads a star range by its first part only ("*-5" is "*").
                start = min;
                end = max;
                partStar = true;
            } else {
                if (lowAndHigh.length > 2) {
                    throw new InvalidSchedule("too many hyphens: " + part);
                }
                start = number(lowAndHigh[0], names);
                end = lowAndHigh.length == 2 ? number(lowAndHigh[1], names) : start;
            }
            int step = 1;
            if (rangeAndStep.length == 2) {
                step = number(rangeAndStep[1], Map.of());
                if (lowAndHigh.length == 1) {
                    end = max; // "N/step" runs from N to the field's end
                }
                if (step > 1) {
                    partStar = false;
                }
            }
            if (start < min || end > max || start > end) {
                throw new InvalidSchedule(part + " is outside " + min + "-" + max);
            }
            if (step == 0) {
                throw new InvalidSchedule("step of range should be a positive number: " + part);
            }
            for (int value = start; value <= end; value += step) {
                bits |= 1L << value;
            }
            star |= partStar;
        }
        return new Field(bits, star);
    }

    private static int number(String written, Map<String, Integer> names) throws InvalidSchedule {
        Integer named = names.get(written.toLowerCase(Locale.ROOT));
        if (named != null) {
            return named;
        }
        try {
            int value = Integer.parseInt(written);
            if (value < 0) {
                throw new InvalidSchedule("negative number (" + value + ") not allowed: " + written);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new InvalidSchedule("failed to parse int from " + written);
        }
    }

    /** As written. */
    @Override
    public String toString() {
        return text;
    }

    /**
     * The first minute strictly after {@code after} that the schedule hits (UTC), or empty when none does before the
     * end of the fifth year after {@code after}'s, as robfig's Next returns its zero time then.
     */
    public Optional<Instant> next(Instant after) {
        LocalDateTime start = LocalDateTime.ofInstant(after, ZoneOffset.UTC)
                .truncatedTo(ChronoUnit.SECONDS)
                .plusSeconds(1);
        // The earliest candidate minute: the start itself where it is a whole minute, else the minute after it.
        LocalDateTime earliest = start.getSecond() == 0
                ? start
                : start.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        int lastYear = start.getYear() + YEARS_SEARCHED;
        for (LocalDate day = earliest.toLocalDate(); day.getYear() <= lastYear; day = day.plusDays(1)) {
            if (!months.has(day.getMonthValue()) || !dayMatches(day)) {
                continue;
            }
            int fromMinute = day.equals(earliest.toLocalDate()) ? earliest.getHour() * 60 + earliest.getMinute() : 0;
            for (int minute = fromMinute; minute < 24 * 60; minute++) {
                if (hours.has(minute / 60) && minutes.has(minute % 60)) {
                    return Optional.of(day.atStartOfDay().plusMinutes(minute).toInstant(ZoneOffset.UTC));
                }
            }
        }
        return Optional.empty();
    }

    private boolean dayMatches(LocalDate day) {
        boolean dayOfMonth = daysOfMonth.has(day.getDayOfMonth());
        boolean dayOfWeek = daysOfWeek.has(weekday(day.getDayOfWeek()));
        return daysOfMonth.star() || daysOfWeek.star() ? dayOfMonth && dayOfWeek : dayOfMonth || dayOfWeek;
    }

    /** Cron's numbering: Sunday 0 to Saturday 6. */
    private static int weekday(DayOfWeek day) {
        return day.getValue() % 7;
    }
}
