package dev.baton.jpa;

import java.util.function.Supplier;

/**
 * Runs the work of a store on a {@link javax.sql.DataSource} ({@link JpaLockStore#builder(javax.sql.DataSource)})
 * with the caller's JTA transaction suspended, so a connection of a JTA data source is not enlisted in it: the
 * store's statements commit on their own, whatever the caller's transaction does after.
 *
 * <p>{@code baton.jpa.data-source} supplies one by itself where Jakarta Transactions is present: a CDI bean
 * whose method is {@code @Transactional(NOT_SUPPORTED)}. In Java SE with a transaction manager of your own,
 * supply one that suspends and resumes around {@code work} (e.g. with {@code TransactionManager.suspend()}).
 */
@FunctionalInterface
public interface TransactionSuspender {

    /** Runs the work on the calling thread as it is: for data sources that never join a JTA transaction. */
    TransactionSuspender NONE = new TransactionSuspender() {
        @Override
        public <T> T outsideTransaction(Supplier<T> work) {
            return work.get();
        }

        @Override
        public String toString() {
            return "none";
        }
    };

    /**
     * Runs {@code work} on the calling thread with no JTA transaction active, and resumes the caller's
     * transaction, if it had one, when {@code work} returns or throws.
     *
     * @param work the store's work; it takes its connection itself
     * @param <T> the result type
     * @return what {@code work} returned
     */
    <T> T outsideTransaction(Supplier<T> work);
}
