package dev.baton.examples.quarkus;

import dev.baton.Synchronized;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * The runs of {@link Sweeper#sweep}, one row each in {@code example_sweep_run} of the application's database:
 * deliberately not unique by planned time, so that a second run of one planned time would show as a second row.
 */
@ApplicationScoped
public class SweepJournal {

    @Inject
    EntityManager em;

    @Inject
    SweepJournal self;

    void onStart(@Observes StartupEvent started) {
        self.createTable();
    }

    /**
     * Creates the table if it is missing. Instances starting together would race on PostgreSQL's catalog: one at
     * a time, under a Baton lock, each in a transaction that commits before the lock is released.
     */
    @Synchronized("example:sweep-journal-schema")
    public void createTable() {
        QuarkusTransaction.requiringNew()
                .run(() -> em.createNativeQuery("CREATE TABLE IF NOT EXISTS example_sweep_run ("
                                + "planned_at BIGINT NOT NULL, instance_name VARCHAR(64) NOT NULL,"
                                + " token BIGINT NOT NULL, ran_at TIMESTAMP(3) WITH TIME ZONE NOT NULL)")
                        .executeUpdate());
    }

    /**
     * @param instance the instance that ran
     * @param plannedAt the planned time, epoch milliseconds
     * @param token the run lock's fencing token
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void record(String instance, long plannedAt, long token) {
        em.createNativeQuery("INSERT INTO example_sweep_run (planned_at, instance_name, token, ran_at)"
                        + " VALUES (?1, ?2, ?3, CURRENT_TIMESTAMP)")
                .setParameter(1, plannedAt)
                .setParameter(2, instance)
                .setParameter(3, token)
                .executeUpdate();
    }

    /** @return every run, {@code <planned epoch ms> <instance> <token>}, by planned time then token */
    @Transactional
    public List<String> runs() {
        List<?> rows = em.createNativeQuery("SELECT planned_at, instance_name, token FROM example_sweep_run"
                        + " ORDER BY planned_at, token")
                .getResultList();
        return rows.stream()
                .map(row -> (Object[]) row)
                .map(r -> r[0] + " " + r[1] + " " + r[2])
                .toList();
    }
}
