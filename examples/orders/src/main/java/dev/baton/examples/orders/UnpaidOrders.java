package dev.baton.examples.orders;

import dev.baton.Exclusive;
import dev.baton.event.ScheduleSkipped;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.Timer;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * An exclusive scheduled job: every two seconds, cancel the orders nothing was paid on within
 * {@code orders.unpaid.cancel-after} seconds of their creation. Every instance of the application fires
 * the timer; {@code @Exclusive} lets one of them run each planned time (the lock
 * {@code schedule:dev.baton.examples.orders.UnpaidOrders.cancelUnpaid} in the JPA store, which all
 * instances share) and the others skip it. Each run is recorded in {@code example_sweep_run} with its
 * planned time, so {@code GET /api/sweeps} shows the runs per planned time, counted by the database.
 */
@Singleton
public class UnpaidOrders {

    /** The period of the schedule, in milliseconds. */
    static final long PERIOD_MILLIS = 2_000;

    /** This instance, as the sweep table names it. */
    static final String INSTANCE = "pid-" + ProcessHandle.current().pid();

    private static final AtomicLong SKIPPED = new AtomicLong();

    @PersistenceContext(unitName = "orders")
    EntityManager em;

    @Inject
    @ConfigProperty(name = "orders.unpaid.cancel-after", defaultValue = "60")
    long cancelAfterSeconds;

    @Exclusive
    @Schedule(second = "*/2", minute = "*", hour = "*", persistent = false)
    public void cancelUnpaid(Timer timer) {
        long plannedAt = Math.floorDiv(timer.getNextTimeout().getTime() - PERIOD_MILLIS + 500, 1000);
        int cancelled = em.createQuery("UPDATE CustomerOrder o SET o.cancelled = TRUE"
                        + " WHERE o.payments = 0 AND o.cancelled = FALSE AND o.createdAtMillis < :before")
                .setParameter("before", System.currentTimeMillis() - cancelAfterSeconds * 1000)
                .executeUpdate();
        em.persist(new SweepRun(plannedAt, INSTANCE, cancelled));
    }

    /** Counts this instance's skipped firings (another instance ran them). */
    static void skipped(@Observes ScheduleSkipped event) {
        if (event.method().contains("cancelUnpaid")) {
            SKIPPED.incrementAndGet();
        }
    }

    /**
     * The runs of the last {@code limit} planned times, newest first, one line each:
     * {@code <planned epoch second> runs=<n> by=<instances>}, then {@code skipped here=<n>}.
     */
    public String sweeps(int limit) {
        List<?> rows = em.createNativeQuery("SELECT planned_at, COUNT(*), MIN(instance_name), MAX(instance_name)"
                        + " FROM example_sweep_run GROUP BY planned_at ORDER BY planned_at DESC")
                .setMaxResults(limit)
                .getResultList();
        StringBuilder text = new StringBuilder();
        for (Object row : rows) {
            Object[] r = (Object[]) row;
            String by = r[2].equals(r[3]) ? r[2].toString() : r[2] + "," + r[3];
            text.append(((Number) r[0]).longValue())
                    .append(" runs=")
                    .append(((Number) r[1]).longValue())
                    .append(" by=")
                    .append(by)
                    .append('\n');
        }
        return text.append("skipped here=")
                .append(SKIPPED.get())
                .append(" (")
                .append(INSTANCE)
                .append(")\n")
                .toString();
    }
}
