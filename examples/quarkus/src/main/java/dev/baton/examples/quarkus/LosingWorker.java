package dev.baton.examples.quarkus;

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
 * Works under a lock that another instance takes over in the lock table meanwhile: with
 * {@code baton.interrupt-on-loss=true} the work is interrupted at the next renewal, and the holder sees
 * the loss through the API and a {@code LockLost} event.
 */
@ApplicationScoped
public class LosingWorker {

    private final List<String> losses = new CopyOnWriteArrayList<>();

    @Inject
    Locks locks;

    @Inject
    Thief thief;

    /**
     * @param name the key's variable part
     * @return {@code takenOver=..,interrupted=..,held=..,whenLost=..,checkHeld=..}
     */
    @Synchronized("signal:{name}")
    public String workUntilLost(String name) {
        Lock lock = locks.current().orElseThrow();
        int takenOver = thief.takeOver(lock.key());
        boolean interrupted = false;
        try {
            // The runtime notices at its next renewal (100 ms here); 30 s is only a safety bound.
            TimeUnit.SECONDS.sleep(30);
        } catch (InterruptedException e) {
            interrupted = true;
        }
        return "takenOver=" + takenOver
                + ",interrupted=" + interrupted
                + ",held=" + lock.isHeld()
                + ",whenLost=" + whenLost(lock)
                + ",checkHeld=" + checkHeld(lock);
    }

    /** @return the {@code LockLost} events observed, as {@code key#token} */
    public List<String> losses() {
        return List.copyOf(losses);
    }

    void lost(@Observes LockLost event) {
        losses.add(event.key() + "#" + event.fencingToken());
    }

    private static String whenLost(Lock lock) {
        LockLostException reason = lock.whenLost().toCompletableFuture().getNow(null);
        return reason == null ? "pending" : reason.getClass().getSimpleName();
    }

    private static String checkHeld(Lock lock) {
        try {
            lock.checkHeld();
            return "passed";
        } catch (LockLostException e) {
            return "LockLostException";
        }
    }
}
