package dev.baton.examples.demo;

import dev.baton.event.LockLost;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Shows the CDI event a lost lock fires. */
@ApplicationScoped
public class LossObserver {

    private final CompletableFuture<LockLost> firstLoss = new CompletableFuture<>();

    void lost(@Observes LockLost event) {
        Demo.say("  event LockLost observed: key=" + event.key() + ", token=" + event.fencingToken());
        firstLoss.complete(event);
    }

    /**
     * Waits for the first {@code LockLost} event. The engine completes {@code whenLost()} before it fires
     * the event (on another thread), so a holder that saw {@code whenLost()} may still be ahead of it.
     *
     * @param seconds how long to wait
     * @return the event
     * @throws Exception when none came in time
     */
    LockLost awaitFirstLoss(long seconds) throws Exception {
        return firstLoss.get(seconds, TimeUnit.SECONDS);
    }
}
