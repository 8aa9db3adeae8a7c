package dev.baton.tck.runtime.exclusion;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.HolderProbe;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * A CDI bean whose method's key comes from a {@link WorkKeys} resolver bean. It counts itself in the
 * probe section named by the key of the lock it holds, so the section shows the resolver's key.
 */
@ApplicationScoped
public class ResolverWorker implements Worker {

    @Inject
    HolderProbe probe;

    @Inject
    Locks locks;

    @Override
    @Synchronized(resolver = WorkKeys.class)
    public void work(String key) {
        probe.hold(locks.current().map(Lock::key).orElse("no lock held"), 100);
    }
}
