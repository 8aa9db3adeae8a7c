package dev.baton.tck.runtime.loss;

import dev.baton.Lock;
import dev.baton.LockLostException;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.event.LockLost;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Works under a lock, then the store disowns it: with {@code baton.interrupt-on-loss=true} the work
 * is interrupted, and what the holder can see of the loss is reported.
 */
@ApplicationScoped
public class LosingWorker {

    private final List<String> losses = new CopyOnWriteArrayList<>();

    @Inject
    Locks locks;

    @Inject
    DisowningStore store;

    /**
     * @return {@code interrupted=..,held=..,whenLost=..,checkHeld=..,token=..}
     */
    @Synchronized("signal:{name}")
    public String workUntilLost(String name) {
        Lock lock = locks.current().orElseThrow();
        boolean interrupted = false;
        store.disown(true);
        try {
            // The runtime notices within a renewal interval (100 ms here); 30 s is only a safety bound.
            TimeUnit.SECONDS.sleep(30);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            store.disown(false);
        }
        return "interrupted=" + interrupted
                + ",held=" + lock.isHeld()
                + ",whenLost=" + whenLost(lock)
                + ",checkHeld=" + checkHeld(lock)
                + ",token=" + lock.fencingToken();
    }

    private static String whenLost(Lock lock) {
        try {
            LockLostException reason = lock.whenLost().toCompletableFuture().getNow(null);
            return reason == null ? "pending" : reason.getClass().getSimpleName();
        } catch (RuntimeException e) {
            return "failed:" + e.getClass().getSimpleName();
        }
    }

    private static String checkHeld(Lock lock) {
        try {
            lock.checkHeld();
            return "passed";
        } catch (LockLostException e) {
            return "LockLostException";
        }
    }

    /** The {@code LockLost} events observed, as {@code key#token}. */
    List<String> losses() {
        return List.copyOf(losses);
    }

    void lost(@Observes LockLost event) {
        losses.add(event.key() + "#" + event.fencingToken());
    }
}
