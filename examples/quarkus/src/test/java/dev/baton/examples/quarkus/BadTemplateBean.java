package dev.baton.examples.quarkus;

import dev.baton.Synchronized;

/**
 * A key template naming a parameter the method does not have. Not a bean of the example application (no
 * bean-defining annotation): {@link BadTemplateBuildIT} makes it one in a build of its own.
 */
public class BadTemplateBean {

    /** @param id the order */
    @Synchronized("order:{orderId}")
    public void pay(long id) {}
}
