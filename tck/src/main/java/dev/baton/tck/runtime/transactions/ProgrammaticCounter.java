package dev.baton.tck.runtime.transactions;

import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/**
 * A CDI bean that takes its lock through the programmatic API inside its {@code @Transactional} method:
 * {@code Locks.callWithLock} returns, and the lock is closed, before the transaction commits.
 */
@ApplicationScoped
public class ProgrammaticCounter implements IncrementingCounter {

    @PersistenceContext(unitName = "baton-tck")
    EntityManager em;

    @Inject
    Locks locks;

    @Override
    @Transactional
    public long increment(String name) {
        return locks.callWithLock("counter:" + name, lock -> Counters.increment(em, name));
    }

    @Override
    @Transactional
    public long read(String name) {
        return Counters.read(em, name);
    }
}
