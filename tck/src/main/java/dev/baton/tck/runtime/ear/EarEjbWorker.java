package dev.baton.tck.runtime.ear;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/** The EJB module's bean: a pool of instances, so calls really run in parallel without the lock. */
@Stateless
public class EarEjbWorker implements EarWork {

    @Inject
    Locks locks;

    @Override
    @Synchronized("ear:{key}")
    public long work(String key) {
        long token = locks.current().orElseThrow().fencingToken();
        EarSections.hold("ejb", token);
        return token;
    }
}
