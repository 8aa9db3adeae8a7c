package dev.baton.tck.runtime.definition;

import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code {customer}} is not a parameter of {@link #ship(String)}: a definition error. Otherwise the same as
 * {@link ShippingBean}.
 */
@ApplicationScoped
public class BadTemplateBean {

    /** The placeholder the deployment error must name. */
    static final String PLACEHOLDER = "{customer}";

    /**
     * @param orderId the order
     */
    @Synchronized("order:" + PLACEHOLDER)
    public void ship(String orderId) {}
}
