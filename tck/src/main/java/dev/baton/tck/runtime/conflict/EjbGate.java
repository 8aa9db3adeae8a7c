package dev.baton.tck.runtime.conflict;

import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.Gate;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;

/**
 * A stateless session bean with container-managed transactions (REQUIRED) whose methods lock
 * {@code ejb-gate:<id>}: {@link #hold} keeps it until the gate opens, {@link #waitFor} waits 300 ms for it,
 * {@link #tryOnce} does not wait.
 */
@Stateless
public class EjbGate {

    @Inject
    Gate gate;

    @Synchronized("ejb-gate:{id}")
    public String hold(String id) {
        return gate.await("ejb-" + id) ? "released" : "gate never opened";
    }

    @Synchronized(value = "ejb-gate:{id}", timeout = "300ms")
    public String waitFor(String id) {
        return "got it";
    }

    @Synchronized(value = "ejb-gate:{id}", await = false)
    public String tryOnce(String id) {
        return "got it";
    }
}
