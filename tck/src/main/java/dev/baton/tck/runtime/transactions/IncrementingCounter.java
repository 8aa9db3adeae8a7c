package dev.baton.tck.runtime.transactions;

/** A database counter; each deployment has one implementation (a CDI bean or an EJB). */
public interface IncrementingCounter {

    /** Adds one to the row {@code name} (created on first use) under {@code counter:<name>}; the new value. */
    long increment(String name);

    /** The row's value, 0 if there is none. */
    long read(String name);
}
