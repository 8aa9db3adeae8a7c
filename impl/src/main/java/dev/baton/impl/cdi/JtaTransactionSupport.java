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

    static TransactionSupport lookup(CdiBeanLookup beans) {
        java.util.Optional<TransactionSynchronizationRegistry> bean =
                beans.bean(TransactionSynchronizationRegistry.class);
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
    public boolean awaitCompletion(HeldLock lock, Runnable completed) {
        int status = registry.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE && status != Status.STATUS_MARKED_ROLLBACK) {
            return false;
        }
        try {
            registry.registerInterposedSynchronization(new AfterCompletion(lock, completed, registry));
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /**
     * Runs {@code completed} once the transaction has completed; completion may run on another thread
     * (a transaction timeout rolls back on the reaper's thread). Vetoes the commit of a lost lock.
     */
    private static final class AfterCompletion implements Synchronization {
        private final HeldLock lock;
        private final Runnable completed;
        private final TransactionSynchronizationRegistry registry;

        AfterCompletion(HeldLock lock, Runnable completed, TransactionSynchronizationRegistry registry) {
            this.lock = lock;
            this.completed = completed;
            this.registry = registry;
        }

        @Override
        public void beforeCompletion() {
            if (!lock.isHeld()) {
                registry.setRollbackOnly();
            }
        }

        @Override
        public void afterCompletion(int status) {
            completed.run();
        }
    }

    @Override
    public String toString() {
        return "JTA (" + JNDI_NAME + ")";
    }
}
