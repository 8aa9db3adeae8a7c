package dev.baton.docs.samples.guide;

import dev.baton.Locks;
import dev.baton.jpa.FencedWrites;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** A fenced write with the JPA store's {@link FencedWrites}, in the caller's transaction. */
@ApplicationScoped
public class Invoices {

    @Inject
    Locks locks;

    @PersistenceContext
    EntityManager em;

    // tag::fenced-write[]
    @Transactional
    public void stamp(String orderId) {
        String key = "order:" + orderId; // with baton.prefix set: the prefix + this
        locks.runWithLock(key, lock -> {
            int rows = FencedWrites.forDatabaseOf(em) // the lock table: baton_locks (= baton.jpa.table)
                    .executeUpdate(
                            em,
                            key,
                            lock.fencingToken(),
                            "UPDATE orders SET invoice_token = ?1 WHERE id = ?2 AND {fence}",
                            lock.fencingToken(),
                            orderId);
            if (rows == 0) {
                throw new IllegalStateException("lost " + key + " before the write: nothing written");
            }
        }); // the lock stays held until the transaction has committed
    }
    // end::fenced-write[]
}
