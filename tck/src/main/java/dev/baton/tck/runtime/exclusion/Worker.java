package dev.baton.tck.runtime.exclusion;

/** A {@code @Synchronized} method; each deployment has one implementation. */
public interface Worker {

    /** Works under the lock {@code <kind>:<key>}, inside the probe's section of the same name. */
    void work(String key);
}
