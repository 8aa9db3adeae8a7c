package dev.baton.examples.orders;

import dev.baton.Locks;
import dev.baton.jpa.FencedWrites;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/**
 * A CDI bean that uses {@link Locks} programmatically: the invoice of an order is issued under the
 * order's lock, carries the lock's fencing token, and is written with a <em>fenced</em> statement, so
 * a holder that lost its lock (a long GC pause, a network partition) cannot write any more.
 */
@ApplicationScoped
public class InvoiceNumbers {

    /** Stamps the order with the invoice's token, only while the token is still the lock's current one. */
    private static final String STAMP = "UPDATE example_order SET invoice_token = ?1 WHERE id = ?2 AND {fence}";

    @Inject
    Locks locks;

    @PersistenceContext(unitName = "orders")
    EntityManager em;

    private volatile FencedWrites fenced;

    /**
     * An invoice number for the order, issued while holding {@code order:<orderId>}.
     *
     * @return the number, or {@code null} if there is no such order
     * @throws IllegalStateException if the lock was lost before the write
     */
    @Transactional
    public String issue(String orderId) {
        String key = "order:" + orderId;
        return locks.callWithLock(key, lock -> {
            if (em.find(CustomerOrder.class, orderId) == null) {
                return null;
            }
            long token = lock.fencingToken();
            int written = fencedWrites().executeUpdate(em, key, token, STAMP, token, orderId);
            if (written == 0) {
                throw new IllegalStateException("the lock on " + key + " was lost before the invoice was written");
            }
            return "INV-" + orderId + "-" + token;
        });
    }

    private FencedWrites fencedWrites() {
        FencedWrites helper = fenced;
        if (helper == null) {
            helper = FencedWrites.forDatabaseOf(em);
            fenced = helper;
        }
        return helper;
    }
}
