package dev.baton.tck.runtime.definition;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The correct twin of {@link BadTemplateBean}: {@code {orderId}} is a parameter of {@link #ship(String)}. */
@ApplicationScoped
public class ShippingBean {

    @Inject
    Locks locks;

    /**
     * @param orderId the order
     * @return the key of the lock held while shipping it
     */
    @Synchronized("order:{orderId}")
    public String ship(String orderId) {
        return locks.current().orElseThrow().key();
    }
}
