package dev.baton.examples.quarkus;

import dev.baton.jpa.TransactionRunner;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.transaction.Transactional;
import java.util.function.Function;

/**
 * Runs the JPA lock store's statements in a JTA transaction of their own: Quarkus's persistence unit is a
 * JTA one, and a lock must commit whatever the caller's transaction does. {@code @Unremovable}: Baton finds
 * it by type at run time, which ArC's removal of unused beans cannot see.
 */
// tag::runner[]
@ApplicationScoped
@Unremovable
public class RequiresNewRunner implements TransactionRunner {

    @Override
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public <T> T inNewTransaction(EntityManagerFactory factory, Function<EntityManager, T> work) {
        EntityManager em = factory.createEntityManager(); // created inside the new JTA transaction
        try {
            em.joinTransaction();
            return work.apply(em);
        } finally {
            em.close();
        }
    }
}
// end::runner[]
