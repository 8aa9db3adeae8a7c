package dev.baton.examples.orders;

import dev.baton.Synchronized;
import jakarta.annotation.sql.DataSourceDefinition;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/**
 * Payments: a stateless EJB with a container-managed transaction. The lock on the order is taken
 * before the method reads the order and released after the transaction has committed, so the next
 * payment of the same order reads the committed total.
 *
 * <p>The application declares its own embedded H2 database, so the WAR runs on any Jakarta EE
 * server without server configuration; point {@code java:app/jdbc/orders} elsewhere (or replace it
 * with a server data source in {@code persistence.xml}) for a real database.
 */
@DataSourceDefinition(
        name = "java:app/jdbc/orders",
        className = "org.h2.jdbcx.JdbcDataSource",
        url = "jdbc:h2:mem:baton-orders;DB_CLOSE_DELAY=-1")
@Stateless
public class PaymentService {

    @PersistenceContext(unitName = "orders")
    EntityManager em;

    /** Adds a payment to an order (creating the order on its first payment). */
    @Synchronized("order:{orderId}")
    public CustomerOrder pay(String orderId, long amountCents) {
        CustomerOrder order = em.find(CustomerOrder.class, orderId);
        if (order == null) {
            order = new CustomerOrder(orderId);
            em.persist(order);
        }
        order.pay(amountCents);
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
}
