package dev.baton.event;

import java.util.Objects;

/**
 * Fired (synchronously and asynchronously) when this instance is granted the leadership of an election
 * ({@link dev.baton.Leadership}): a term begins. Synchronous observers run on the thread that won the election,
 * one of Baton's, before {@link dev.baton.Leadership#whenGranted()} completes.
 *
 * @param manager the lock manager's name, empty for the default
 * @param name the election's name
 * @param token the term's fencing token: its lock's
 */
public record LeadershipGranted(String manager, String name, long token) {

    /**
     * Checks the components.
     *
     * @param manager the lock manager's name, empty for the default
     * @param name the election's name
     * @param token the term's fencing token
     * @throws NullPointerException if {@code manager} or {@code name} is null
     */
    public LeadershipGranted {
        Objects.requireNonNull(manager, "manager");
        Objects.requireNonNull(name, "name");
    }
}
