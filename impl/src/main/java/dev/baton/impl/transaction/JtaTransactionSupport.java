package dev.baton.impl.transaction;

import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.runtime.BeanLookup;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * JTA through the standard {@code java:comp/TransactionSynchronizationRegistry}. Loaded only when JTA is present.
 *
 * <p>What runs once a transaction has completed (the release in the store) runs on a store-call thread, not in
 * {@code afterCompletion}: Jakarta Transactions leaves undefined what a synchronization may do there, and the
 * completed transaction may still be on the thread. A store's own transaction handling then fails, as Payara's
 * JTS does, which cannot resume a completed transaction after the JPA store's {@code @Transactional(NOT_SUPPORTED)}
 * call. The committing thread waits for it, so the lock has left the store when the commit returns.
 */
final class JtaTransactionSupport implements TransactionSupport {

    private static final String JNDI_NAME = "java:comp/TransactionSynchronizationRegistry";

    private final TransactionSynchronizationRegistry registry;
    private final Executor storeCalls;

    private JtaTransactionSupport(TransactionSynchronizationRegistry registry, Executor storeCalls) {
        this.registry = registry;
        this.storeCalls = storeCalls;
    }

    /**
     * @param beans to find a {@code TransactionSynchronizationRegistry} bean
     * @param storeCalls where a release after completion runs
     * @return JTA support, or {@link TransactionSupport#NONE} without a registry
     */
    static TransactionSupport lookup(BeanLookup beans, Executor storeCalls) {
        java.util.Optional<TransactionSynchronizationRegistry> bean =
                beans.bean(TransactionSynchronizationRegistry.class);
        if (bean.isPresent()) {
            return new JtaTransactionSupport(bean.get(), storeCalls);
        }
        try {
            Object found = new InitialContext().lookup(JNDI_NAME);
            if (found instanceof TransactionSynchronizationRegistry registry) {
                return new JtaTransactionSupport(registry, storeCalls);
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
            registry.registerInterposedSynchronization(new AfterCompletion(lock, completed, registry, storeCalls));
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /**
     * Runs {@code completed} once the transaction has completed, on a store-call thread; completion may run on
     * another thread than the transaction's (a transaction timeout rolls back on the reaper's thread). Vetoes
     * the commit of a lost lock.
     */
    private static final class AfterCompletion implements Synchronization {
        private final HeldLock lock;
        private final Runnable completed;
        private final TransactionSynchronizationRegistry registry;
        private final Executor storeCalls;

        AfterCompletion(
                HeldLock lock, Runnable completed, TransactionSynchronizationRegistry registry, Executor storeCalls) {
            this.lock = lock;
            this.completed = completed;
            this.registry = registry;
            this.storeCalls = storeCalls;
        }

        @Override
        public void beforeCompletion() {
            if (!lock.isHeld()) {
                registry.setRollbackOnly();
            }
        }

        @Override
        public void afterCompletion(int status) {
            runOutsideTheTransaction(lock, completed, storeCalls);
        }
    }

    /**
     * Runs {@code completed} on a thread of {@code storeCalls}, where no transaction is, and waits until it is
     * done or the lock's lease is over, whichever comes first: either way the key is free in the store when
     * this returns (a release that takes longer goes on meanwhile). If the pool is shut down (the application
     * is stopping), runs it here rather than not at all.
     */
    static void runOutsideTheTransaction(HeldLock lock, Runnable completed, Executor storeCalls) {
        FutureTask<Void> task = new FutureTask<>(completed, null);
        try {
            storeCalls.execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
        long leaseLeftNanos = Duration.between(Instant.now(), lock.validUntil()).toNanos();
        try {
            task.get(Math.max(0, leaseLeftNanos), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            BatonLog.releaseFailed(lock.logKeys(), lock.key(), e.getCause());
        } catch (TimeoutException e) {
            BatonLog.debug(
                    lock.logKeys(),
                    lock.key(),
                    "Releasing lock '" + lock.key() + "' after its transaction completed took longer than"
                            + " its lease; it goes on while the transaction's thread moves on");
        }
    }

    @Override
    public String toString() {
        return "JTA (" + JNDI_NAME + ")";
    }
}
