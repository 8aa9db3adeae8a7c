package dev.baton.impl.schedule;

import dev.baton.LockConfigurationException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Optional;

/**
 * The next firing of a cron expression, computed by cron-utils ({@code com.cronutils}), the library the scheduler
 * that fires the method uses itself (Quarkus's scheduler), so both read the expression the same way. Read
 * reflectively through the scheduler's class loader: Baton neither ships nor requires cron-utils, and where it is
 * absent the deployment fails with a message asking for a period.
 */
final class CronCalendar implements ScheduleCalendar {

    private static final String PACKAGE = "com.cronutils.";

    private final Object executionTime;
    private final Method nextExecution;
    private final ZoneId zone;

    private CronCalendar(Object executionTime, Method nextExecution, ZoneId zone) {
        this.executionTime = executionTime;
        this.nextExecution = nextExecution;
        this.zone = zone;
    }

    /**
     * Parses the expression now, so that an expression the scheduler would refuse fails the deployment.
     *
     * @param expression the cron expression
     * @param cronType cron-utils' name of its syntax ({@code quartz}, {@code unix}, {@code cron4j}, {@code spring},
     *     {@code spring53}), in any case
     * @param zone the zone the expression is read in
     * @param loader the class loader of the scheduler's API, which sees its cron-utils
     * @param description how the deployment error names the schedule
     * @return the calendar
     * @throws LockConfigurationException when cron-utils is absent or refuses the expression
     */
    static CronCalendar of(String expression, String cronType, ZoneId zone, ClassLoader loader, String description) {
        Class<?> typeEnum;
        try {
            typeEnum = Class.forName(PACKAGE + "model.CronType", true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new LockConfigurationException("the next firing of " + description + " cannot be computed: "
                    + "cron-utils (com.cronutils:cron-utils, which the scheduler uses) is not on the class path; "
                    + "set a period, e.g. @Exclusive(period = \"5m\")");
        }
        Object type = cronType(typeEnum, cronType, description);
        try {
            Class<?> definitions = Class.forName(PACKAGE + "model.definition.CronDefinitionBuilder", true, loader);
            Class<?> definitionType = Class.forName(PACKAGE + "model.definition.CronDefinition", true, loader);
            Class<?> parserType = Class.forName(PACKAGE + "parser.CronParser", true, loader);
            Class<?> cronClass = Class.forName(PACKAGE + "model.Cron", true, loader);
            Class<?> executionTimes = Class.forName(PACKAGE + "model.time.ExecutionTime", true, loader);
            Object definition =
                    definitions.getMethod("instanceDefinitionFor", typeEnum).invoke(null, type);
            Object parser = parserType.getConstructor(definitionType).newInstance(definition);
            Object cron = parserType.getMethod("parse", String.class).invoke(parser, expression);
            Object executionTime =
                    executionTimes.getMethod("forCron", cronClass).invoke(null, cron);
            Method next = executionTimes.getMethod("nextExecution", ZonedDateTime.class);
            return new CronCalendar(executionTime, next, zone);
        } catch (InvocationTargetException e) {
            throw new LockConfigurationException("the cron expression '" + expression + "' of " + description
                    + " is not valid " + cronType + " syntax: " + e.getCause().getMessage());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new LockConfigurationException("the next firing of " + description + " cannot be computed with "
                    + "this cron-utils (" + e + "); set a period, e.g. @Exclusive(period = \"5m\")");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object cronType(Class<?> typeEnum, String name, String description) {
        try {
            return Enum.valueOf((Class<? extends Enum>) typeEnum.asSubclass(Enum.class), name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException(
                    "the cron syntax '" + name + "' of " + description + " is not one cron-utils knows");
        }
    }

    @Override
    public long intervalMillis(Instant firedAt) {
        // cron-utils answers the first execution strictly after the time given, to the second
        ZonedDateTime from = ZonedDateTime.ofInstant(firedAt, zone);
        Object next;
        try {
            next = nextExecution.invoke(executionTime, from);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cron-utils failed on the next execution after " + from, e.getCause());
        }
        Optional<?> found = (Optional<?>) next;
        if (found.isEmpty()) {
            return Intervals.NO_NEXT;
        }
        return Math.max(1, ((ZonedDateTime) found.get()).toInstant().toEpochMilli() - firedAt.toEpochMilli());
    }
}
