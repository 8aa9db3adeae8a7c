package dev.baton.tck.runtime.definition;

import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;

/** {@code {customer}} is not a parameter of {@link #ship(String)}: a definition error. */
@ApplicationScoped
public class BadTemplateBean {

    @Synchronized("order:{customer}")
    public void ship(String orderId) {}
}
