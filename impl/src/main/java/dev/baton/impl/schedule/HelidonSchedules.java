package dev.baton.impl.schedule;

import dev.baton.LockConfigurationException;
import java.lang.annotation.Annotation;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Helidon MP's own scheduling ({@code io.helidon.microprofile.scheduling}), read reflectively (Baton does not depend
 * on Helidon): what an {@code @Exclusive} method with it needs to name its planned firings alike in every instance.
 * <ul>
 * <li>{@code @FixedRate(value, timeUnit)}: a period counted from each instance's start; the period aligned on the
 * epoch names a firing, as for {@code @Exclusive(period = ...)}.</li>
 * <li>{@code @Scheduled(value)}: a cron expression in Quartz syntax, which Helidon reads with cron-utils; the next
 * firing after one names it ({@link CronCalendar}), in the system's zone, as Helidon fires it.</li>
 * </ul>
 * As Helidon does, the configuration under {@code <bean class>.<method>.schedule} comes first ({@code delay} and
 * {@code time-unit}; {@code expression}, or the older {@code cron}), and {@code ${key}} in an expression is a
 * configuration value.
 */
final class HelidonSchedules {

    private static final String PACKAGE = "io.helidon.microprofile.scheduling.";
    static final String FIXED_RATE = PACKAGE + "FixedRate";
    static final String SCHEDULED = PACKAGE + "Scheduled";

    /** The parameters Helidon may pass to a scheduled method: its invocation, or one of its two kinds. */
    static final Set<String> INVOCATIONS = Set.of(
            "io.helidon.scheduling.Invocation",
            "io.helidon.scheduling.FixedRateInvocation",
            "io.helidon.scheduling.CronInvocation");

    /** Helidon reads cron in Quartz syntax. */
    private static final String CRON_TYPE = "quartz";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]+)}");

    private HelidonSchedules() {}

    /**
     * @param annotations the method's annotations
     * @return its Helidon {@code @FixedRate} and {@code @Scheduled}; empty when it has none
     */
    static List<Annotation> schedules(Collection<? extends Annotation> annotations) {
        List<Annotation> schedules = new ArrayList<>();
        for (Annotation annotation : annotations) {
            String name = annotation.annotationType().getName();
            if (name.equals(FIXED_RATE) || name.equals(SCHEDULED)) {
                schedules.add(annotation);
            }
        }
        return schedules;
    }

    /**
     * @param schedules what {@link #schedules} found, not empty
     * @param beanClass the bean class, whose name starts the method's configuration
     * @param method the method's name
     * @param config the application's configuration: a value by key, if set
     * @return how the schedule names its firings
     * @throws LockConfigurationException for both annotations on one method, a value that is not valid, or a cron
     *     expression that cannot be read
     */
    static SchedulerTiming timing(
            List<Annotation> schedules, Class<?> beanClass, String method, Function<String, Optional<String>> config) {
        if (schedules.size() > 1) {
            throw new LockConfigurationException("it has both @FixedRate and @Scheduled (io.helidon.microprofile."
                    + "scheduling), which Helidon refuses");
        }
        Annotation schedule = schedules.get(0);
        String prefix = beanClass.getName() + "." + method + ".schedule.";
        if (schedule.annotationType().getName().equals(FIXED_RATE)) {
            long value =
                    configuredLong(config, prefix + "delay").orElse((Long) SchedulerTiming.member(schedule, "value"));
            TimeUnit unit = configuredUnit(config, prefix + "time-unit")
                    .orElse((TimeUnit) SchedulerTiming.member(schedule, "timeUnit"));
            String source = "@FixedRate(value = " + value + ", timeUnit = " + unit + ")";
            long millis = unit.toMillis(value);
            if (millis <= 0) {
                throw new LockConfigurationException(source + " is not a positive period of at least 1 ms");
            }
            return new SchedulerTiming(millis, source, null);
        }
        String cron = config.apply(prefix + "expression")
                .or(() -> config.apply(prefix + "cron"))
                .orElse((String) SchedulerTiming.member(schedule, "value"));
        cron = placeholders(cron, config);
        String source = "@Scheduled(\"" + cron + "\")";
        ClassLoader loader = schedule.annotationType().getClassLoader();
        return new SchedulerTiming(0, source, CronCalendar.of(cron, CRON_TYPE, ZoneId.systemDefault(), loader, source));
    }

    private static Optional<Long> configuredLong(Function<String, Optional<String>> config, String key) {
        Optional<String> value = config.apply(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(value.get().trim()));
        } catch (NumberFormatException e) {
            throw new LockConfigurationException(key + "='" + value.get() + "' is not a whole number");
        }
    }

    private static Optional<TimeUnit> configuredUnit(Function<String, Optional<String>> config, String key) {
        Optional<String> value = config.apply(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(TimeUnit.valueOf(value.get().trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException(key + "='" + value.get() + "' is not a time unit");
        }
    }

    /** {@code ${key}} replaced by the configuration's value, as Helidon does; a key not set fails, as in Helidon. */
    private static String placeholders(String cron, Function<String, Optional<String>> config) {
        Matcher matcher = PLACEHOLDER.matcher(cron);
        StringBuilder resolved = new StringBuilder();
        while (matcher.find()) {
            String key = matcher.group(1);
            String value = config.apply(key)
                    .orElseThrow(() -> new LockConfigurationException(
                            "@Scheduled(\"" + cron + "\") names the " + "property " + key + ", which is not set"));
            matcher.appendReplacement(resolved, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(resolved);
        return resolved.toString();
    }
}
