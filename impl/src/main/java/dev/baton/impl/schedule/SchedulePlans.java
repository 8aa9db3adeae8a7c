package dev.baton.impl.schedule;

import dev.baton.Exclusive;
import dev.baton.LockConfigurationException;
import dev.baton.impl.config.AnnotationOverrides;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.Durations;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.spi.LockArguments;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Builds {@link SchedulePlan}s at deployment: merges {@code @Exclusive} with its MicroProfile Config
 * overrides and checks that the method can be a schedule. Every problem is a
 * {@link LockConfigurationException} naming the class, the method and the value.
 */
public final class SchedulePlans {

    private static final String ANNOTATION = Exclusive.class.getSimpleName();
    /** Container schedules whose timer reports the next firing (EJB). Matched by name: jakarta.ejb is optional. */
    private static final Set<String> EJB_TIMED =
            Set.of("jakarta.ejb.Schedule", "jakarta.ejb.Schedules", "jakarta.ejb.Timeout");

    private SchedulePlans() {}

    /**
     * @param beanClass the bean class (for config overrides)
     * @param method the method
     * @param annotation its {@code @Exclusive}
     * @param annotations all annotations of the method, as the container sees them
     * @param config the validated configuration
     * @return the plan
     * @throws LockConfigurationException naming class, method and problem
     */
    public static SchedulePlan build(
            Class<?> beanClass,
            Method method,
            Exclusive annotation,
            Collection<? extends Annotation> annotations,
            BatonConfig config) {
        String description = beanClass.getName() + "." + method.getName() + "()";
        try {
            return plan(beanClass, method, annotation, annotations, config);
        } catch (LockConfigurationException e) {
            throw new LockConfigurationException("@Exclusive on " + description + ": " + e.getMessage());
        }
    }

    private static SchedulePlan plan(
            Class<?> beanClass,
            Method method,
            Exclusive annotation,
            Collection<? extends Annotation> annotations,
            BatonConfig config) {
        int modifiers = method.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isPrivate(modifiers) || Modifier.isFinal(modifiers)) {
            throw new LockConfigurationException("a static, private or final method cannot be intercepted");
        }
        boolean ejbTimed = annotations.stream()
                .anyMatch(a -> EJB_TIMED.contains(a.annotationType().getName()));
        List<Annotation> concurrencySchedules = ConcurrencySchedules.schedules(annotations);
        boolean concurrencyTimed = !concurrencySchedules.isEmpty();
        List<Annotation> quarkusSchedules = QuarkusSchedules.schedules(annotations);
        boolean quarkusTimed = !quarkusSchedules.isEmpty();
        List<Annotation> helidonSchedules = HelidonSchedules.schedules(annotations);
        boolean helidonTimed = !helidonSchedules.isEmpty();
        checkParameters(method, concurrencyTimed, quarkusTimed, helidonTimed);
        if (quarkusTimed && method.getReturnType() != void.class) {
            throw new LockConfigurationException(
                    "it returns " + method.getReturnType().getName() + "; with "
                            + "@Scheduled (io.quarkus.scheduler) it must return void: the run would end, and its lock be "
                            + "given back, before what it returns completes");
        }
        if (method.getReturnType().isPrimitive() && method.getReturnType() != void.class) {
            throw new LockConfigurationException(
                    "it returns " + method.getReturnType().getName() + ", but a skipped firing "
                            + "returns null; return void or an object type");
        }
        AnnotationOverrides overrides = new AnnotationOverrides(config, beanClass, method, ANNOTATION);
        String manager = overrides.get("manager").orElse(annotation.manager());
        Optional<ManagerSettings> settings = config.manager(manager);
        if (settings.isEmpty()) {
            throw new LockConfigurationException(
                    "manager '" + manager + "' is not declared (list it in baton.managers)");
        }
        String key = overrides.get("value").orElse(annotation.value());
        if (key.isEmpty()) {
            key = Exclusive.KEY_PREFIX + method.getDeclaringClass().getName() + "." + method.getName();
        }
        try {
            LockArguments.requireValidKey(settings.get().prefix() + key, true);
        } catch (IllegalArgumentException e) {
            throw new LockConfigurationException("key '" + key + "': " + e.getMessage());
        }
        int longestClaimKey = settings.get().prefix().length() + key.length() + 1 + PlannedTime.MAX_IDENTITY_LENGTH;
        if (longestClaimKey > LockArguments.MAX_KEY_LENGTH) {
            throw new LockConfigurationException("key '" + key + "': the keys of its planned-time claims ('" + key
                    + PlannedTime.CLAIM_SEPARATOR + "<epoch ms>', with the manager's prefix) may be "
                    + longestClaimKey + " chars long, at most " + LockArguments.MAX_KEY_LENGTH);
        }
        Value period = duration(overrides, "period", annotation.period());
        Value hold = duration(overrides, "hold", annotation.hold());
        if (hold == null && config.exclusiveHoldMillis().isPresent()) {
            hold = new Value(config.exclusiveHoldMillis().getAsLong(), BatonConfig.EXCLUSIVE_HOLD);
        }
        Value retention = duration(overrides, "retention", annotation.retention());
        if (retention == null && config.exclusiveRetentionMillis().isPresent()) {
            retention = new Value(config.exclusiveRetentionMillis().getAsLong(), BatonConfig.EXCLUSIVE_RETENTION);
        }
        boolean retryFailed = bool(overrides, "retryFailed", annotation.retryFailed());
        Optional<ScheduleCalendar> calendar = concurrencyTimed && period == null
                ? Optional.of(ConcurrencySchedules.calendar(concurrencySchedules))
                : Optional.empty();
        boolean turnedOff = false;
        if ((quarkusTimed || helidonTimed) && period == null && calendar.isEmpty()) {
            SchedulerTiming timing = quarkusTimed
                    ? QuarkusSchedules.timing(quarkusSchedules, config::value)
                    : HelidonSchedules.timing(helidonSchedules, beanClass, method.getName(), config::value);
            if (timing.periodMillis() > 0) {
                period = new Value(timing.periodMillis(), timing.source());
            } else if (timing.calendar() != null) {
                calendar = Optional.of(timing.calendar());
            }
            turnedOff = timing.off(); // never fired by the scheduler: a direct call takes the run lock only
        }
        if (period == null && !ejbTimed && calendar.isEmpty() && !turnedOff) {
            throw new LockConfigurationException("the period between its planned firings cannot be known: it has no "
                    + "@Schedule, @Schedules or @Timeout (jakarta.ejb) whose timer reports the next firing, no "
                    + "@Asynchronous(runAt = @Schedule(...)) (Jakarta Concurrency 3.1), no @Scheduled (Quarkus), "
                    + "no @FixedRate or @Scheduled (Helidon), and no period; "
                    + "set one, e.g. @Exclusive(period = \"5m\") or " + overrides.key("period") + "=5m");
        }
        if (period != null && hold != null && hold.millis >= period.millis) {
            throw new LockConfigurationException(
                    "the hold " + hold.source + " (" + hold.millis + " ms) is not shorter than "
                            + "the period " + period.source + " (" + period.millis
                            + " ms): the next planned firing would find the "
                            + "lock still held");
        }
        String name = beanClass.getName() + "." + method.getName();
        return new SchedulePlan(
                name,
                manager,
                key,
                hold == null ? OptionalLong.empty() : OptionalLong.of(hold.millis),
                period == null ? OptionalLong.empty() : OptionalLong.of(period.millis),
                calendar,
                retention == null ? OptionalLong.empty() : OptionalLong.of(retention.millis),
                retryFailed);
    }

    /**
     * EJB calls a timeout method with nothing or its Timer; Quarkus with nothing or its execution; Helidon with nothing
     * or its invocation; others with nothing.
     */
    private static void checkParameters(
            Method method, boolean concurrencyTimed, boolean quarkusTimed, boolean helidonTimed) {
        Class<?>[] types = method.getParameterTypes();
        if (concurrencyTimed
                || types.length == 0
                || (types.length == 1 && types[0].getName().equals(ContainerTimers.EJB_TIMER))
                || (quarkusTimed && types.length == 1 && types[0].getName().equals(QuarkusSchedules.EXECUTION))
                || (helidonTimed && types.length == 1 && HelidonSchedules.INVOCATIONS.contains(types[0].getName()))) {
            return; // a Concurrency schedule is started by a call with its arguments, and repeats them
        }
        StringBuilder list = new StringBuilder();
        for (Class<?> type : types) {
            list.append(list.length() == 0 ? "" : ", ").append(type.getName());
        }
        throw new LockConfigurationException(
                "it takes parameters (" + list + ") that no scheduler supplies; a scheduled "
                        + "method takes none, or one " + ContainerTimers.EJB_TIMER + " (EJB timeout methods) or "
                        + QuarkusSchedules.EXECUTION + " (Quarkus) or io.helidon.scheduling.Invocation (Helidon)");
    }

    private record Value(long millis, String source) {}

    private static boolean bool(AnnotationOverrides overrides, String member, boolean annotated) {
        Optional<String> configured = overrides.get(member);
        if (configured.isEmpty()) {
            return annotated;
        }
        String value = configured.get().trim().toLowerCase(java.util.Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new LockConfigurationException(
                    overrides.key(member) + "='" + configured.get() + "' is not true or false");
        }
        return Boolean.parseBoolean(value);
    }

    private static Value duration(AnnotationOverrides overrides, String member, String annotated) {
        Optional<String> configured = overrides.get(member);
        if (configured.isPresent()) {
            String key = overrides.key(member);
            return new Value(Durations.parseMillis(configured.get(), key), key + "=" + configured.get());
        }
        if (annotated.isBlank()) {
            return null;
        }
        String source = member + " = \"" + annotated + "\"";
        return new Value(Durations.parseMillis(annotated, source), source);
    }
}
