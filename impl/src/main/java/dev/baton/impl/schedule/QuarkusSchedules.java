package dev.baton.impl.schedule;

import dev.baton.LockConfigurationException;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Quarkus's {@code @io.quarkus.scheduler.Scheduled}, read reflectively (Baton does not depend on Quarkus): what an
 * {@code @Exclusive} method with it needs to name its planned firings the same way in every instance.
 * <ul>
 * <li>{@code every}: a fixed period counted from each instance's start, so instances fire at different moments; the
 * period aligned on the epoch names a firing, as for {@code @Exclusive(period = ...)}.</li>
 * <li>{@code cron} (which Quarkus prefers when both are set): the wall clock's firings, the same in every instance;
 * the next one after a firing names it, computed by the cron-utils the scheduler uses
 * ({@link CronCalendar}), in the syntax of {@code quarkus.scheduler.cron-type} (Quartz by default) and the
 * schedule's {@code timeZone}.</li>
 * </ul>
 * Both members may name a configuration property, as Quarkus allows ({@code "{name}"}, {@code "${name}"}, with a
 * default after {@code :}); {@code off} or {@code disabled} turns the schedule off, and such a method is guarded by
 * its run lock only, when something calls it.
 */
final class QuarkusSchedules {

    static final String SCHEDULED = "io.quarkus.scheduler.Scheduled";
    private static final String SCHEDULES = "io.quarkus.scheduler.Scheduled$Schedules";

    /** The parameter Quarkus may pass to a scheduled method. */
    static final String EXECUTION = "io.quarkus.scheduler.ScheduledExecution";

    /** The configuration key of Quarkus's cron syntax, and its default. */
    static final String CRON_TYPE = "quarkus.scheduler.cron-type";

    private static final String DEFAULT_CRON_TYPE = "quartz";

    /** {@code Scheduled.DEFAULT_TIMEZONE}: the system's zone. */
    private static final String DEFAULT_TIMEZONE = "<<default timezone>>";

    private static final Pattern PROPERTY = Pattern.compile("^\\$?\\{([^:}]+)(?::([^}]*))?}$");
    private static final Pattern SHORT = Pattern.compile("^(\\d+)(ms)?$");

    private QuarkusSchedules() {}

    /**
     * @param annotations the method's annotations
     * @return its Quarkus {@code @Scheduled}s, the repeated ones included; empty when it has none
     */
    static List<Annotation> schedules(Collection<? extends Annotation> annotations) {
        List<Annotation> schedules = new ArrayList<>();
        for (Annotation annotation : annotations) {
            String name = annotation.annotationType().getName();
            if (name.equals(SCHEDULED)) {
                schedules.add(annotation);
            } else if (name.equals(SCHEDULES)
                    && SchedulerTiming.member(annotation, "value") instanceof Annotation[] each) {
                schedules.addAll(List.of(each));
            }
        }
        return schedules;
    }

    /**
     * @param schedules what {@link #schedules} found, not empty
     * @param config the application's configuration: a value by key, if set
     * @return how the schedule names its firings
     * @throws LockConfigurationException for several schedules, a value that is not valid, or a cron expression
     *     that cannot be read
     */
    static SchedulerTiming timing(List<Annotation> schedules, Function<String, Optional<String>> config) {
        if (schedules.size() > 1) {
            throw new LockConfigurationException("it has " + schedules.size() + " @Scheduled (io.quarkus.scheduler), "
                    + "whose firings cannot be named as one schedule; set a period, e.g. @Exclusive(period = \"5m\")");
        }
        Annotation schedule = schedules.get(0);
        String cron = resolve((String) SchedulerTiming.member(schedule, "cron"), "cron", config);
        if (!cron.isEmpty()) {
            if (isOff(cron)) {
                return new SchedulerTiming(0, "@Scheduled(cron = \"" + cron + "\")", null);
            }
            String zoneName = (String) SchedulerTiming.member(schedule, "timeZone");
            ZoneId zone;
            try {
                zone = zoneName.equals(DEFAULT_TIMEZONE) ? ZoneId.systemDefault() : ZoneId.of(zoneName);
            } catch (RuntimeException e) {
                throw new LockConfigurationException("@Scheduled(timeZone = \"" + zoneName + "\") is not a zone");
            }
            String source = "@Scheduled(cron = \"" + cron + "\")";
            String cronType = config.apply(CRON_TYPE).orElse(DEFAULT_CRON_TYPE);
            ClassLoader loader = schedule.annotationType().getClassLoader();
            return new SchedulerTiming(0, source, CronCalendar.of(cron, cronType, zone, loader, source));
        }
        String every = resolve((String) SchedulerTiming.member(schedule, "every"), "every", config);
        String source = "@Scheduled(every = \"" + every + "\")";
        if (every.isEmpty() || isOff(every)) {
            return new SchedulerTiming(0, source, null);
        }
        long millis = parseEvery(every, source);
        return new SchedulerTiming(millis, source, null);
    }

    /** Quarkus's duration syntax: whole seconds, {@code 500ms}, {@code 5s}/{@code 2m}/{@code 1h}/{@code 1d}, ISO-8601. */
    private static long parseEvery(String every, String source) {
        Duration duration;
        try {
            Matcher plain = SHORT.matcher(every);
            if (plain.matches()) {
                long amount = Long.parseLong(plain.group(1));
                duration = plain.group(2) == null ? Duration.ofSeconds(amount) : Duration.ofMillis(amount);
            } else if (Character.isDigit(every.charAt(0))) {
                char unit = Character.toLowerCase(every.charAt(every.length() - 1));
                duration = Duration.parse((unit == 'd' ? "P" : "PT") + every);
            } else {
                duration = Duration.parse(every);
            }
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            throw new LockConfigurationException(source + " is not a duration Quarkus reads");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new LockConfigurationException(source + " is not a positive period");
        }
        return duration.toMillis();
    }

    private static boolean isOff(String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        return lower.equals("off") || lower.equals("disabled");
    }

    /** A member's value, or the value of the configuration property it names. */
    private static String resolve(String value, String member, Function<String, Optional<String>> config) {
        String trimmed = value.trim();
        Matcher property = PROPERTY.matcher(trimmed);
        if (!property.matches()) {
            return trimmed;
        }
        String name = property.group(1).trim();
        Optional<String> configured = config.apply(name);
        if (configured.isPresent()) {
            return configured.get().trim();
        }
        if (property.group(2) != null) {
            return property.group(2).trim();
        }
        throw new LockConfigurationException(
                "@Scheduled(" + member + " = \"" + value + "\") names the property " + name + ", which is not set");
    }
}
