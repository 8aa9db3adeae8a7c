package dev.baton.impl.cdi;

import dev.baton.impl.engine.HeldLock;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/** JTA through the standard {@code java:comp/TransactionSynchronizationRegistry}. Loaded only when JTA is present. */
final class JtaTransactionSupport implements TransactionSupport {

    private static final String JNDI_NAME = "java:comp/TransactionSynchronizationRegistry";

    private final TransactionSynchronizationRegistry registry;

    private JtaTransactionSupport(TransactionSynchronizationRegistry registry) {
        this.registry = registry;
    }

    static TransactionSupport lookup(jakarta.enterprise.inject.spi.BeanManager beanManager) {
        java.util.Optional<TransactionSynchronizationRegistry> bean =
                new CdiBeanLookup(beanManager).bean(TransactionSynchronizationRegistry.class);
        if (bean.isPresent()) {
            return new JtaTransactionSupport(bean.get());
        }
        try {
            Object found = new InitialContext().lookup(JNDI_NAME);
            if (found instanceof TransactionSynchronizationRegistry registry) {
                return new JtaTransactionSupport(registry);
            }
        } catch (NamingException | RuntimeException e) {
            // No naming context (Java SE, tests) or no JTA: locks are released when the method returns.
        }
        return NONE;
    }

    @Override
    public boolean releaseAfterCompletion(HeldLock lock) {
        int status = registry.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE && status != Status.STATUS_MARKED_ROLLBACK) {
            return false;
        }
        try {
            registry.registerInterposedSynchronization(new ReleaseAfterCompletion(lock, registry));
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** Releases after completion, which may run on another thread; vetoes the commit of a lost lock. */
    private record ReleaseAfterCompletion(HeldLock lock, TransactionSynchronizationRegistry registry) implements Synchronization {
        @Override
        public void beforeCompletion() {
            if (!lock.isHeld()) {
                registry.setRollbackOnly();
            }
        }

        @Override
        public void afterCompletion(int status) {
            lock.close();
        }
    }

    @Override
    public String toString() {
        return "JTA (" + JNDI_NAME + ")";
    }
}
