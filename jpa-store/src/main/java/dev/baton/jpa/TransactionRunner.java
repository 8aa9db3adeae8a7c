package dev.baton.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.function.Function;

/**
 * Runs one store operation in a transaction of its own, never in the caller's: a caller's rollback
 * must not undo a lock, and a lock statement must not queue behind the caller's transaction.
 *
 * <p>The default, for {@code RESOURCE_LOCAL} persistence units (Java SE, tests, most servers with an
 * application-managed unit), opens an {@link EntityManager} and an
 * {@link jakarta.persistence.EntityTransaction} per operation. For a JTA persistence unit supply a
 * runner that suspends the caller's transaction, e.g. a CDI bean whose method is
 * {@code @Transactional(REQUIRES_NEW)} and joins the entity manager to that transaction (see the
 * docs/stores.md).
 */
@FunctionalInterface
public interface TransactionRunner {

    /**
     * Runs {@code work} with an entity manager whose transaction is new, active, and committed when
     * {@code work} returns (rolled back when it throws).
     *
     * @param factory the store's entity manager factory
     * @param work the operation; it gets the entity manager and must not close it
     * @param <T> the result type
     * @return what {@code work} returned
     */
    <T> T inNewTransaction(EntityManagerFactory factory, Function<EntityManager, T> work);
}
