package dev.baton.jpa.internal;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.TransactionRunner;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.sql.Connection;
import java.util.function.Function;

/**
 * The default {@link TransactionRunner}: a new application-managed entity manager and a
 * {@code RESOURCE_LOCAL} transaction per operation, so the store uses its own connection and never
 * the caller's. During a store call ({@link CallBound}) the connection is bounded from before the
 * transaction begins until after it ends, where the provider lets the store reach it that early (see
 * {@link JdbcAccess#open}).
 */
public final class ResourceLocalTransactionRunner implements TransactionRunner {

    /** The shared instance; it has no state. */
    public static final ResourceLocalTransactionRunner INSTANCE = new ResourceLocalTransactionRunner();

    private ResourceLocalTransactionRunner() {}

    @Override
    public <T> T inNewTransaction(EntityManagerFactory factory, Function<EntityManager, T> work) {
        EntityManager em = JdbcAccess.open(factory);
        try {
            EntityTransaction tx;
            try {
                tx = em.getTransaction();
            } catch (IllegalStateException e) {
                throw new LockConfigurationException(
                        "The JPA lock store's persistence unit uses JTA transactions;"
                                + " the store needs its own transactions: use a RESOURCE_LOCAL persistence unit (data source"
                                + " or JDBC settings) for it, or supply a dev.baton.jpa.TransactionRunner that runs in a new"
                                + " JTA transaction (REQUIRES_NEW)",
                        e);
            }
            CallBound bound = CallBound.current();
            Connection held = bound == null ? null : JdbcAccess.connectionBeforeBegin(em);
            boolean attached = held != null && bound.attach(held);
            try {
                tx.begin();
                try {
                    T result = work.apply(em);
                    tx.commit();
                    return result;
                } catch (RuntimeException e) {
                    rollbackQuietly(tx, e);
                    throw e;
                }
            } finally {
                if (attached) {
                    bound.detach(held);
                }
            }
        } finally {
            em.close();
        }
    }

    private static void rollbackQuietly(EntityTransaction tx, RuntimeException failure) {
        try {
            if (tx.isActive()) {
                tx.rollback();
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public String toString() {
        return "resource-local";
    }
}
