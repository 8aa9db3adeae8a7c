package dev.baton.impl.transaction;

import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.ReleaseDeferral;
import dev.baton.impl.runtime.BeanLookup;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Defers a release to the end of the caller's JTA transaction. Without JTA on the classpath or a
 * transaction on the thread, it does nothing and the caller releases at once. As a
 * {@link ReleaseDeferral} it gives the programmatic API the same rules as {@code @Synchronized}.
 */
public interface TransactionSupport extends ReleaseDeferral {

    /** The binary name of JTA's synchronization registry, the one JTA type Baton looks up. */
    String REGISTRY = "jakarta.transaction.TransactionSynchronizationRegistry";

    /** No JTA: always release at once. */
    TransactionSupport NONE = new TransactionSupport() {
        @Override
        public boolean awaitCompletion(HeldLock lock, Runnable completed) {
            return false;
        }

        @Override
        public Runnable releaseAfterCompletion(HeldLock lock) {
            return null;
        }

        @Override
        public String toString() {
            return "no JTA";
        }
    };

    /**
     * If a JTA transaction is active on this thread (or marked rollback-only), registers {@code completed}
     * to run after it completes, and marks it rollback-only before it commits if {@code lock} is no longer
     * held then.
     */
    @Override
    boolean awaitCompletion(HeldLock lock, Runnable completed);

    /**
     * How the caller releases {@code lock} once the method has returned. In a JTA transaction on this thread, the
     * lock is released after the transaction completes and the method has returned, whichever comes last (a
     * transaction that times out is rolled back on another thread while the method still runs), and the
     * transaction is marked rollback-only if the lock is no longer held when it is about to commit. Without one,
     * the caller releases at once.
     *
     * @param lock the lock of the invocation
     * @return what the caller runs, once, when the method has returned; null if there is no transaction: the
     *     caller closes the lock itself (nothing made per call on the hot path)
     */
    default Runnable releaseAfterCompletion(HeldLock lock) {
        // The transaction's completion and the method's return still to come.
        AtomicInteger pending = new AtomicInteger(2);
        Runnable done = () -> {
            if (pending.decrementAndGet() == 0) {
                lock.close();
            }
        };
        return awaitCompletion(lock, done) ? done : null;
    }

    /**
     * @param beans to find a {@code TransactionSynchronizationRegistry} bean (Java SE setups)
     * @param storeCalls where the release after a transaction's completion runs (Baton's store-call pool): not
     *     in the transaction's {@code afterCompletion}, where the completed transaction may still be on the thread
     * @return JTA support when a {@code TransactionSynchronizationRegistry} can be found (a CDI bean, else
     *     {@code java:comp/TransactionSynchronizationRegistry}), else {@link #NONE}
     */
    static TransactionSupport detect(BeanLookup beans, java.util.concurrent.Executor storeCalls) {
        try {
            Class.forName(REGISTRY, false, TransactionSupport.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return NONE;
        }
        return JtaTransactionSupport.lookup(beans, storeCalls);
    }
}
