package dev.baton.docs.samples.guide;

import dev.baton.Synchronized;
import jakarta.ejb.Stateless;

/** The ways a {@code @Synchronized} method names its key, as the user guide shows them. */
@Stateless
public class Orders {

    // tag::keys[]
    @Synchronized("order:{orderId}") // the parameter named orderId (compile with -parameters)
    public void pay(String orderId, long amountCents) {
        // ...
    }

    @Synchronized("customer:{order.customer.id}") // a path through getters, record components, public fields
    public void invoice(Order order) {
        // ...
    }

    @Synchronized(value = "import:{0}", timeout = "2s", ttl = "5m") // the first parameter; this method's durations
    public void importFile(String name) {
        // ...
    }
    // end::keys[]

    // tag::waiting[]
    @Synchronized(value = "search:reindex", await = false) // fail at once while another instance runs it
    public void reindex() {
        // ...
    }

    @Synchronized(value = "seat:{0}", pollMaxInterval = "20ms") // a waiter sees a release elsewhere within 20 ms
    public void book(String seat) {
        // ...
    }
    // end::waiting[]

    // tag::resolver[]
    @Synchronized(resolver = TenantKeys.class) // the bean TenantKeys computes the key
    public void nightly(String tenant) {
        // ...
    }
    // end::resolver[]

    /** A customer. */
    public record Customer(String id) {}

    /** An order of a customer. */
    public record Order(String id, Customer customer) {}
}
