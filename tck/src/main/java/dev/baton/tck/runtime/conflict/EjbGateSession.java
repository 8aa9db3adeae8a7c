package dev.baton.tck.runtime.conflict;

import dev.baton.Synchronized;
import jakarta.ejb.Stateful;

/**
 * A stateful session bean: an EJB container discards it after a system exception, and a further call on it then
 * fails ({@code NoSuchEJBException}), so it shows whether the container took the bean's exception for one.
 */
@Stateful
public class EjbGateSession {

    @Synchronized(value = "ejb-gate:{id}", await = false)
    public String tryOnce(String id) {
        return "got it";
    }

    /** Does nothing: a call that fails only where the bean was discarded. */
    public void touch() {}
}
