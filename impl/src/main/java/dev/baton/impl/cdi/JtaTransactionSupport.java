package dev.baton.impl.cdi;

import dev.baton.impl.engine.HeldLock;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.atomic.AtomicInteger;
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
        java.util.Optional<TransactionSynchronizationRegistry> bean = beans.bean(TransactionSynchronizationRegistry.class);
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
    public Runnable releaseAfterCompletion(HeldLock lock) {
        int status = registry.getTransactionStatus();
        if (status != Status.STATUS_ACTIVE && status != Status.STATUS_MARKED_ROLLBACK) {
            return null;
        }
        ReleaseAfterCompletion release = new ReleaseAfterCompletion(lock, registry);
        try {
            registry.registerInterposedSynchronization(release);
            return release;
        } catch (IllegalStateException e) {
            return null;
        }
    }

    /**
     * Releases once the transaction has completed and the method has returned, in either order:
     * completion may run on another thread (a transaction timeout rolls back on the reaper's thread
     * while the method still runs). Vetoes the commit of a lost lock.
     */
    private static final class ReleaseAfterCompletion implements Synchronization, Runnable {
        private final HeldLock lock;
        private final TransactionSynchronizationRegistry registry;
        /** The transaction's completion and the method's return still to come. */
        private final AtomicInteger pending = new AtomicInteger(2);

        ReleaseAfterCompletion(HeldLock lock, TransactionSynchronizationRegistry registry) {
            this.lock = lock;
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
            done();
        }

        /** The method returned (a CompletionStage method: its stage completed). */
        @Override
        public void run() {
            done();
        }

        private void done() {
            if (pending.decrementAndGet() == 0) {
                lock.close();
            }
        }
    }

    @Override
    public String toString() {
        return "JTA (" + JNDI_NAME + ")";
    }
}
