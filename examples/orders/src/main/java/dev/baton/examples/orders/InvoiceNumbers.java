package dev.baton.examples.orders;

import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * A CDI bean that uses {@link Locks} programmatically: the invoice of an order is issued under the
 * order's lock, and carries the lock's fencing token, which only ever grows for a key.
 */
@ApplicationScoped
public class InvoiceNumbers {

    @Inject
    Locks locks;

    /** An invoice number for the order, issued while holding {@code invoice:<orderId>}. */
    public String issue(String orderId) {
        return locks.callWithLock("invoice:" + orderId, lock -> "INV-" + orderId + "-" + lock.fencingToken());
    }
}
