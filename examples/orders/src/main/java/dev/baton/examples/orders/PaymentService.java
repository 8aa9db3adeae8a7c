package dev.baton.examples.orders;

import dev.baton.Synchronized;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * Payments: a stateless EJB with a container-managed transaction. The lock on the order is taken
 * before the method reads the order and released after the transaction has committed, so the next
 * payment of the same order reads the committed total.
 *
 * <p>The orders live in the application's own embedded H2 database (see {@code WEB-INF/web.xml}),
 * next to the JPA lock store's table, so the WAR runs on any Jakarta EE server without server
 * configuration.
 */
@Stateless
public class PaymentService {

    @PersistenceContext(unitName = "orders")
    EntityManager em;

    /**
     * Adds a payment to an order (creating the order on its first payment).
     *
     * @param processingMillis how long the payment provider takes (0 to 10 000 ms), between reading
     *     the order and writing it back: the window in which an unlocked payment would lose another
     * @throws PaymentRefusedException if the amount is not positive (the transaction rolls back, the
     *     lock's acquisition does not)
     */
    @Synchronized("order:{orderId}")
    public CustomerOrder pay(String orderId, long amountCents, long processingMillis) {
        CustomerOrder order = em.find(CustomerOrder.class, orderId);
        if (processingMillis > 0) {
            try {
                Thread.sleep(Math.min(processingMillis, 10_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while paying " + orderId, e);
            }
        }
        if (order == null) {
            order = new CustomerOrder(orderId);
            em.persist(order);
        }
        if (amountCents <= 0) {
            // after the order was created, so that the rollback has something to undo
            throw new PaymentRefusedException("a payment of " + amountCents + " cents on order " + orderId
                    + " is refused: the amount must be positive");
        }
        order.pay(amountCents);
        return order;
    }

    /** Creates an order with nothing paid on it yet (or returns the existing one). */
    @Synchronized("order:{orderId}")
    public CustomerOrder create(String orderId) {
        CustomerOrder order = em.find(CustomerOrder.class, orderId);
        if (order == null) {
            order = new CustomerOrder(orderId);
            em.persist(order);
        }
        return order;
    }

    /** Marks an order shipped. */
    public CustomerOrder ship(String orderId) {
        CustomerOrder order = em.find(CustomerOrder.class, orderId);
        if (order == null) {
            return null;
        }
        order.ship();
        return order;
    }

    /** The order, or {@code null}. */
    public CustomerOrder find(String orderId) {
        return em.find(CustomerOrder.class, orderId);
    }

    /**
     * The lock store's row of a key, as JSON: its last fencing token, and whether a lease on it is
     * live by the database clock; {@code null} if the key was never locked.
     */
    public String lockRow(String key) {
        List<?> rows = em.createNativeQuery("SELECT token, CASE WHEN expires_at > CURRENT_TIMESTAMP THEN 1 ELSE 0 END"
                        + " FROM baton_locks WHERE lock_key = ?1")
                .setParameter(1, key)
                .getResultList();
        if (rows.isEmpty()) {
            return null;
        }
        Object[] row = (Object[]) rows.get(0);
        return "{\"key\":\"" + key.replace("\"", "\\\"") + "\",\"token\":" + ((Number) row[0]).longValue()
                + ",\"held\":" + (((Number) row[1]).intValue() == 1) + "}";
    }
}
