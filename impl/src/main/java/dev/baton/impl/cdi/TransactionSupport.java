package dev.baton.impl.cdi;

import dev.baton.impl.engine.HeldLock;

/**
 * Defers a release to the end of the caller's JTA transaction. Without JTA on the classpath or a
 * transaction on the thread, it does nothing and the caller releases at once.
 */
interface TransactionSupport {

    /** No JTA: always release at once. */
    TransactionSupport NONE = lock -> false;

    /**
     * If a JTA transaction is active on this thread, arranges for {@code lock} to be released after it
     * completes, and for the transaction to be marked rollback-only if the lock is no longer held when it
     * is about to commit.
     *
     * @param lock the lock of the invocation
     * @return true if the release is deferred; false if the caller must release
     */
    boolean releaseAfterCompletion(HeldLock lock);

    /**
     * @param beanManager to find a {@code TransactionSynchronizationRegistry} bean (Java SE setups)
     * @return JTA support when a {@code TransactionSynchronizationRegistry} can be found (a CDI bean, else
     *     {@code java:comp/TransactionSynchronizationRegistry}), else {@link #NONE}
     */
    static TransactionSupport detect(jakarta.enterprise.inject.spi.BeanManager beanManager) {
        try {
            Class.forName("jakarta.transaction.TransactionSynchronizationRegistry", false, TransactionSupport.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return NONE;
        }
        return JtaTransactionSupport.lookup(beanManager);
    }
}
