package dev.baton.tck.runtime.transactions;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** Reads a counter of {@link DataSourceWork} in a transaction of its own (what was committed). */
@ApplicationScoped
public class DataSourceReads {

    @PersistenceContext(unitName = "baton-tck")
    EntityManager em;

    /**
     * @param name the counter
     * @return its committed value (0 when it has no row)
     */
    @Transactional
    public long read(String name) {
        return Counters.read(em, name);
    }
}
