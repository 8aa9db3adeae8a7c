package dev.baton.tck.runtime.ear;

import jakarta.ejb.Local;

/** The EJB module's business interface, in the EAR's {@code lib/} so that the web module sees it. */
@Local
public interface EarWork {

    /** Runs {@link EarSections#hold} under the lock {@code ear:<key>}; returns the fencing token. */
    long work(String key);
}
