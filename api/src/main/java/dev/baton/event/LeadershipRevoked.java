package dev.baton.event;

import dev.baton.Leadership.Reason;
import dev.baton.LockLostException;
import java.util.Objects;
import java.util.Optional;

/**
 * Fired (synchronously and asynchronously) when a term of this instance's leadership ended
 * ({@link dev.baton.Leadership}). Synchronous observers run on the thread that ends the term (one of Baton's for a
 * loss and the shutdown, the caller's for {@code stepDown()} and {@code close()}), before
 * {@link dev.baton.Leadership#whenRevoked()} completes and before the lock is released (a lost lock is gone
 * from the store already). From the moment the term ended {@code isLeader()} is false: stop acting as leader.
 *
 * @param manager the lock manager's name, empty for the default
 * @param name the election's name
 * @param token the fencing token of the term that ended
 * @param reason why it ended
 * @param loss the lock's loss, for {@link Reason#LOST}
 */
public record LeadershipRevoked(
        String manager, String name, long token, Reason reason, Optional<LockLostException> loss) {

    /**
     * Checks the components.
     *
     * @param manager the lock manager's name, empty for the default
     * @param name the election's name
     * @param token the fencing token of the term that ended
     * @param reason why it ended
     * @param loss the lock's loss, for {@link Reason#LOST}
     * @throws NullPointerException if a component is null
     */
    public LeadershipRevoked {
        Objects.requireNonNull(manager, "manager");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(loss, "loss");
    }
}
