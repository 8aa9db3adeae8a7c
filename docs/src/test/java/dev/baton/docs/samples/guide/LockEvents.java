package dev.baton.docs.samples.guide;

import dev.baton.event.LockLost;
import dev.baton.event.ScheduleSkipped;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.logging.Logger;

// tag::observers[]
@ApplicationScoped
public class LockEvents {

    private static final Logger LOG = Logger.getLogger(LockEvents.class.getName());

    void lost(@Observes LockLost event) { // on a thread of Baton's, not the holder's
        LOG.warning("lost " + event.key() + " (token " + event.fencingToken() + "): "
                + event.reason().getMessage());
    }

    void skipped(@Observes ScheduleSkipped event) {
        switch (event.reason()) {
            case STORE_FAILED, MANAGER_UNAVAILABLE ->
                LOG.severe("not run: " + event.method() + " at " + event.firedAt());
            default -> {} // PLANNED_TIME_CLAIMED, HELD_ELSEWHERE: run, or running, on another instance
        }
    }
}
// end::observers[]
