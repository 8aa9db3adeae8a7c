package dev.baton.examples.demo;

import dev.baton.event.LockLost;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Shows the CDI event a lost lock fires. */
@ApplicationScoped
public class LossObserver {

    void lost(@Observes LockLost event) {
        Demo.say("  event LockLost observed: key=" + event.key() + ", token=" + event.fencingToken());
    }
}
