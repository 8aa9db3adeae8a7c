package dev.baton.tck.runtime.transactions;

import dev.baton.Synchronized;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** A stateless EJB with a container-managed transaction (REQUIRED). */
@Stateless
public class EjbCounter implements IncrementingCounter {

    @PersistenceContext(unitName = "baton-tck")
    EntityManager em;

    @Override
    @Synchronized("counter:{name}")
    public long increment(String name) {
        return Counters.increment(em, name);
    }

    @Override
    public long read(String name) {
        return Counters.read(em, name);
    }
}
