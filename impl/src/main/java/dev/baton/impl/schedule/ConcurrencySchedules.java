package dev.baton.impl.schedule;

import dev.baton.LockConfigurationException;
import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.Month;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Jakarta Concurrency 3.1 schedules ({@code @Asynchronous(runAt = @Schedule(...))}), read reflectively:
 * Baton compiles against Concurrency 3.0 (Jakarta EE 10), where neither {@code runAt} nor
 * {@code CronTrigger} exists. The next planned firing comes from the API's own {@code CronTrigger}, built
 * from each {@code @Schedule} as the specification defines it, never from a cron parser of ours.
 */
final class ConcurrencySchedules {

    static final String ASYNCHRONOUS = "jakarta.enterprise.concurrent.Asynchronous";
    private static final String CRON_TRIGGER = "jakarta.enterprise.concurrent.CronTrigger";
    private static final String LAST_EXECUTION = "jakarta.enterprise.concurrent.LastExecution";

    private ConcurrencySchedules() {}

    /**
     * @param annotations the method's annotations
     * @return the {@code @Schedule}s of its {@code @Asynchronous(runAt = ...)}; empty when it has none
     *     (no {@code @Asynchronous}, or Concurrency 3.0 whose {@code @Asynchronous} has no {@code runAt})
     */
    static List<Annotation> schedules(Collection<? extends Annotation> annotations) {
        List<Annotation> schedules = new ArrayList<>();
        for (Annotation annotation : annotations) {
            if (annotation.annotationType().getName().equals(ASYNCHRONOUS)) {
                Object runAt;
                try {
                    runAt = annotation.annotationType().getMethod("runAt").invoke(annotation);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    continue; // Concurrency 3.0: no runAt
                }
                if (runAt instanceof Annotation[] each) {
                    schedules.addAll(List.of(each));
                }
            }
        }
        return schedules;
    }

    /**
     * Builds a trigger per schedule now, so that a schedule the API refuses fails the deployment.
     *
     * @param schedules what {@link #schedules} found, not empty
     * @return the earliest next firing of any of them
     * @throws LockConfigurationException when the API is incomplete or refuses a schedule
     */
    static ScheduleCalendar calendar(List<Annotation> schedules) {
        List<Trigger> triggers = new ArrayList<>();
        for (Annotation schedule : schedules) {
            triggers.add(trigger(schedule));
        }
        return firedAt -> {
            long earliest = Intervals.NO_NEXT;
            for (Trigger trigger : triggers) {
                earliest = Math.min(earliest, trigger.intervalMillis(firedAt));
            }
            return earliest;
        };
    }

    /** One {@code CronTrigger}, and how to ask it. */
    private record Trigger(Object cronTrigger, Method nextRunTime, ZoneId zone) {

        long intervalMillis(Instant firedAt) {
            // the trigger answers a time at or after the one given: a nanosecond on, it is after the firing
            ZonedDateTime from = ZonedDateTime.ofInstant(firedAt.plusNanos(1), zone);
            Object next;
            try {
                next = nextRunTime.invoke(cronTrigger, null, from);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("CronTrigger.getNextRunTime failed after " + from, e.getCause());
            }
            if (next == null) {
                return Intervals.NO_NEXT;
            }
            return Math.max(1, ((ZonedDateTime) next).toInstant().toEpochMilli() - firedAt.toEpochMilli());
        }
    }

    private static Trigger trigger(Annotation schedule) {
        String description = describe(schedule);
        try {
            ClassLoader loader = schedule.annotationType().getClassLoader();
            Class<?> type = Class.forName(CRON_TRIGGER, true, loader);
            Class<?> lastExecution = Class.forName(LAST_EXECUTION, true, loader);
            String zoneName = (String) member(schedule, "zone");
            ZoneId zone = zoneName.isEmpty() ? ZoneId.systemDefault() : ZoneId.of(zoneName);
            String cron = (String) member(schedule, "cron");
            Object trigger;
            if (!cron.isEmpty()) {
                trigger = type.getConstructor(String.class, ZoneId.class).newInstance(cron, zone);
            } else {
                trigger = type.getConstructor(ZoneId.class).newInstance(zone);
                // an empty months/days list means "every"; hours, minutes, seconds default to {0}
                set(type, trigger, "months", Month[].class, member(schedule, "months"));
                set(type, trigger, "daysOfMonth", int[].class, member(schedule, "daysOfMonth"));
                set(type, trigger, "daysOfWeek", DayOfWeek[].class, member(schedule, "daysOfWeek"));
                set(type, trigger, "hours", int[].class, member(schedule, "hours"));
                set(type, trigger, "minutes", int[].class, member(schedule, "minutes"));
                set(type, trigger, "seconds", int[].class, member(schedule, "seconds"));
            }
            Method next = type.getMethod("getNextRunTime", lastExecution, ZonedDateTime.class);
            return new Trigger(trigger, next, zone);
        } catch (InvocationTargetException e) {
            throw new LockConfigurationException("Jakarta Concurrency refuses " + description + ": "
                    + e.getCause().getMessage());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new LockConfigurationException("the next firing of " + description + " cannot be computed with "
                    + "this server's Jakarta Concurrency API (" + e
                    + "); set a period, e.g. @Exclusive(period = \"5m\")");
        }
    }

    private static void set(Class<?> type, Object trigger, String name, Class<?> arrayType, Object values)
            throws ReflectiveOperationException {
        if (java.lang.reflect.Array.getLength(values) > 0) {
            type.getMethod(name, arrayType).invoke(trigger, values);
        }
    }

    private static Object member(Annotation annotation, String name) throws ReflectiveOperationException {
        return annotation.annotationType().getMethod(name).invoke(annotation);
    }

    private static String describe(Annotation schedule) {
        return schedule.toString();
    }
}
