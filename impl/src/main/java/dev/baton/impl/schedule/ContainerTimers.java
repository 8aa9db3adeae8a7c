package dev.baton.impl.schedule;

/**
 * The container's word on when a schedule fires next. The EJB API is optional: where {@code jakarta.ejb}
 * is absent (Weld SE, Helidon) no class of it is loaded, and every interval is {@link Intervals#UNKNOWN}.
 */
public final class ContainerTimers {

    /** The parameter type an EJB container supplies to a timeout method. */
    public static final String EJB_TIMER = "jakarta.ejb.Timer";

    private static final boolean EJB = present(EJB_TIMER);

    private ContainerTimers() {}

    /**
     * @param timer what {@code InvocationContext.getTimer()} returned, may be null
     * @param firedAtMillis when the firing began, by the wall clock (as the timer's times are)
     * @return the interval to the next planned firing, or an {@link Intervals} value
     */
    public static long intervalMillis(Object timer, long firedAtMillis) {
        if (timer == null || !EJB) {
            return Intervals.UNKNOWN;
        }
        return EjbTimers.intervalMillis(timer, firedAtMillis);
    }

    /**
     * The planned firing an EJB timer's callback runs for: a calendar timer's next timeout names it (every
     * instance's timer reports the same); an interval timer's firing falls in a period aligned on the epoch.
     *
     * @param timer what {@code InvocationContext.getTimer()} returned, may be null
     * @param firedAtMillis when the firing began, by the wall clock
     * @param periodMillis the method's period, or 0: the bucket of an interval timer
     * @return the planned time, or null when the container tells none (no timer, the timer's last firing)
     */
    public static PlannedTime plannedTime(Object timer, long firedAtMillis, long periodMillis) {
        if (timer == null || !EJB) {
            return null;
        }
        return EjbTimers.plannedTime(timer, firedAtMillis, periodMillis);
    }

    private static boolean present(String type) {
        try {
            Class.forName(type, false, ContainerTimers.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
