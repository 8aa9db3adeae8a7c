package dev.baton.tck.runtime.transactions;

import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** A CDI bean: {@code @Transactional} (outer) around {@code @Synchronized} (inner). */
@ApplicationScoped
public class TransactionalCounter implements IncrementingCounter {

    @PersistenceContext(unitName = "baton-tck")
    EntityManager em;

    @Override
    @Transactional
    @Synchronized("counter:{name}")
    public long increment(String name) {
        return Counters.increment(em, name);
    }

    @Override
    @Transactional
    public long read(String name) {
        return Counters.read(em, name);
    }
}
