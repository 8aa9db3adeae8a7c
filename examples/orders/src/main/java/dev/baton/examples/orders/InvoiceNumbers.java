package dev.baton.examples.orders;

import dev.baton.Locks;
import dev.baton.jpa.FencedWrites;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A CDI bean that uses {@link Locks} programmatically: the invoice of an order is issued under the
 * order's lock, carries the lock's fencing token, and is written with a <em>fenced</em> statement, so
 * a holder that lost its lock (a long GC pause, a network partition) cannot write any more.
 */
@ApplicationScoped
public class InvoiceNumbers {

    /** Stamps the order with the invoice's token, only while the token is still the lock's current one. */
    private static final String STAMP = "UPDATE example_order SET invoice_token = ?1 WHERE id = ?2 AND {fence}";

    /**
     * With the locks elsewhere (e.g. {@code baton.store=redis}) the order itself checks the token: a write
     * with a token lower than one it has seen is refused, so a holder that lost its lock to a newer one cannot
     * overwrite the newer holder's invoice.
     */
    private static final String STAMP_IF_NEWER = "UPDATE example_order SET invoice_token = ?1 WHERE id = ?2"
            + " AND (invoice_token IS NULL OR invoice_token < ?1)";

    @Inject
    @ConfigProperty(name = "baton.store", defaultValue = "jpa")
    String store;

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
            int written = store.equals("jpa")
                    ? fencedWrites().executeUpdate(em, key, token, STAMP, token, orderId)
                    : em.createNativeQuery(STAMP_IF_NEWER)
                            .setParameter(1, token)
                            .setParameter(2, orderId)
                            .executeUpdate();
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
