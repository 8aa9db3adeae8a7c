package dev.baton.faults.worker;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The critical section behind {@code @Synchronized}, the way most users take a lock. */
@ApplicationScoped
public class SynchronizedWork {

    @Inject
    Locks locks;

    /**
     * Runs the critical section under the lock of {@code key}.
     *
     * @param key the key
     * @param requested when the caller asked for the lock (nano)
     */
    @Synchronized("{key}")
    public void run(String key, long requested) {
        Worker.section()
                .run(
                        locks.current()
                                .orElseThrow(() ->
                                        new IllegalStateException("no current lock inside a @Synchronized method")),
                        key,
                        requested,
                        "sync");
    }
}
