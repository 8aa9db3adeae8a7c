package dev.baton.jpa.internal.jta;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;

/**
 * Adds {@link NotSupportedSuspender} as a bean where Jakarta Transactions is present, and only there: the jar
 * has no {@code beans.xml}, so nothing of {@code jakarta.transaction} is touched in Java SE or on a runtime
 * without JTA (where a connection cannot join a transaction anyway).
 */
public class JtaExtension implements Extension {

    void addSuspender(@Observes BeforeBeanDiscovery discovery, BeanManager beans) {
        if (present()) {
            discovery.addAnnotatedType(
                    beans.createAnnotatedType(NotSupportedSuspender.class), NotSupportedSuspender.class.getName());
        }
    }

    /** @return whether the Jakarta Transactions API can be loaded beside this jar */
    public static boolean present() {
        try {
            Class.forName("jakarta.transaction.Transactional", false, JtaExtension.class.getClassLoader());
            Class.forName(
                    "jakarta.transaction.TransactionSynchronizationRegistry",
                    false,
                    JtaExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
