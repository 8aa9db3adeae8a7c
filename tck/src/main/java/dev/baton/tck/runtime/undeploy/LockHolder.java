package dev.baton.tck.runtime.undeploy;

import dev.baton.Lock;
import dev.baton.LockOptions;
import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Takes locks when the application starts and keeps them until Baton says the application stops: three
 * of the default manager, one of it with a lease of an hour, and one of the manager {@value #AUDIT} (whose
 * ttl is ten minutes). Each is given back when it is lost ({@code whenLost()}, which Baton completes when
 * the application stops): the documented way for a lock held for the application's lifetime. Baton
 * leaves a lock still open after the shutdown grace period to expire, as it cannot tell whether work
 * still runs under it.
 */
@ApplicationScoped
public class LockHolder {

    /** The named manager. */
    static final String AUDIT = "audit";

    /** Keys of the default manager, taken with its ttl. */
    static final List<String> KEYS = List.of("undeploy:first", "undeploy:second", "undeploy:third");

    /** Key of the default manager taken with a lease of an hour. */
    static final String LONG_LEASE_KEY = "undeploy:long-lease";

    /** Key of the manager {@value #AUDIT} (its prefix comes first in the store). */
    static final String AUDIT_KEY = "undeploy:audit";

    private final List<Lock> held = new CopyOnWriteArrayList<>();

    @Inject
    Locks locks;

    void takeLocks(@Observes @Initialized(ApplicationScoped.class) Object started) {
        for (String key : KEYS) {
            keep(locks.acquire(key));
        }
        keep(locks.acquire(LONG_LEASE_KEY, LockOptions.defaults().withTtl(Duration.ofHours(1))));
        keep(locks.manager(AUDIT).acquire(AUDIT_KEY));
    }

    private void keep(Lock lock) {
        held.add(lock);
        lock.whenLost().thenRun(lock::close);
    }
}
