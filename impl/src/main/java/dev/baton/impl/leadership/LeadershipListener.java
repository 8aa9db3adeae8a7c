package dev.baton.impl.leadership;

import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;

/**
 * Told when a term begins and ends: the CDI layer turns it into events. Called on the thread that begins or
 * ends the term, before the candidacy's stages complete and, for a revocation, before the lock is released.
 */
public interface LeadershipListener {

    /** Tells nothing. */
    LeadershipListener NONE = new LeadershipListener() {};

    /**
     * @param granted the term that began
     */
    default void granted(LeadershipGranted granted) {}

    /**
     * @param revoked the term that ended
     */
    default void revoked(LeadershipRevoked revoked) {}
}
