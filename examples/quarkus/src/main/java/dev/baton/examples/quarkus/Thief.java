package dev.baton.examples.quarkus;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

/**
 * Plays another instance that took a key over in the lock table (as after a lease ran out): rewrites the
 * row's owner, in a transaction of its own, on the Quarkus data source.
 */
@ApplicationScoped
public class Thief {

    @Inject
    EntityManager em;

    /**
     * @param key the lock key
     * @return the rows taken over (1 when the key was held)
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public int takeOver(String key) {
        return em.createNativeQuery("UPDATE baton_locks SET owner = 'another-instance' WHERE lock_key = ?1")
                .setParameter(1, key)
                .executeUpdate();
    }
}
