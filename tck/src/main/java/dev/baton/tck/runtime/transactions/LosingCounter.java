package dev.baton.tck.runtime.transactions;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.event.LockLost;
import dev.baton.tck.runtime.loss.DisowningStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes a row under a lock and then loses the lock before its transaction commits: the commit must
 * fail, so a holder that lost its lock cannot commit.
 */
@ApplicationScoped
public class LosingCounter {

    private final AtomicInteger losses = new AtomicInteger();

    @PersistenceContext(unitName = "baton-tck")
    EntityManager em;

    @Inject
    Locks locks;

    @Inject
    DisowningStore store;

    /**
     * @param name the counter
     * @return whether the lock was still held when the method returned (it must not be)
     */
    @Transactional
    @Synchronized("lost:{name}")
    public boolean incrementThenLoseTheLock(String name) {
        Counters.increment(em, name);
        return loseTheLock(locks.current().orElseThrow());
    }

    /**
     * The same under a lock taken through the programmatic API, {@code Locks.callWithLock}.
     *
     * @param name the counter
     * @return whether the lock was still held when the work returned (it must not be)
     */
    @Transactional
    public boolean incrementThenLoseTheLockProgrammatically(String name) {
        return locks.callWithLock("lost:" + name, lock -> {
            Counters.increment(em, name);
            return loseTheLock(lock);
        });
    }

    /** Makes the store disown {@code lock} and waits until the runtime has noticed; whether it is still held. */
    private boolean loseTheLock(Lock lock) {
        store.disown(true);
        try {
            // The runtime notices within a renewal interval (100 ms here); 30 s is only a safety bound.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (lock.isHeld() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            store.disown(false);
        }
        return lock.isHeld();
    }

    @Transactional
    public long read(String name) {
        return Counters.read(em, name);
    }

    int losses() {
        return losses.get();
    }

    void lost(@Observes LockLost event) {
        losses.incrementAndGet();
    }
}
