package dev.baton.tck.runtime.shared;

import dev.baton.LockType;
import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.Gate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * An application-scoped bean whose readers and writers of {@code prices:<id>} count themselves in the {@link
 * ReadWriteProbe} section {@code <id>}.
 */
@ApplicationScoped
public class Prices {

    /** How long a reader or a writer stays inside: long enough for the readers let in together to overlap. */
    static final long HOLD_MILLIS = 150;

    @Inject
    ReadWriteProbe probe;

    @Inject
    Gate gate;

    @Synchronized(value = "prices:{id}", type = LockType.READ)
    public void read(String id) {
        probe.hold(id, LockType.READ, HOLD_MILLIS);
    }

    /** {@link LockType#WRITE}, the default. */
    @Synchronized("prices:{id}")
    public void write(String id) {
        probe.hold(id, LockType.WRITE, HOLD_MILLIS);
    }

    /** Reads until the test opens the gate {@code reading-<id>}. */
    @Synchronized(value = "prices:{id}", type = LockType.READ)
    public boolean readUntilOpened(String id) {
        probe.enter(id, LockType.READ);
        try {
            return gate.await("reading-" + id);
        } finally {
            probe.leave(id, LockType.READ);
        }
    }
}
