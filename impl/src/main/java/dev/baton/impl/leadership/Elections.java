package dev.baton.impl.leadership;

import dev.baton.Leadership;
import dev.baton.Leadership.Reason;
import dev.baton.LockException;
import dev.baton.impl.engine.LockEngine;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The elections of one lock manager in this application: one candidacy per name, made when first asked for
 * and forgotten when closed, so that asking again joins anew.
 */
public final class Elections {

    private final LockEngine engine;
    private final Executor standbyThreads;
    private final LeadershipListener listener;
    private final Map<String, Candidacy> candidacies = new ConcurrentHashMap<>();
    /** Set by {@link #closeAll}: the application is stopping, and nobody joins any more. */
    private volatile boolean closed;

    /**
     * @param engine the manager's engine
     * @param standbyThreads where candidacies stand by (a thread each while they wait for the lock); Baton's
     *     store-call pool in production
     * @param listener told of every term
     */
    public Elections(LockEngine engine, Executor standbyThreads, LeadershipListener listener) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.standbyThreads = Objects.requireNonNull(standbyThreads, "standbyThreads");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * @param name the election's name
     * @return this instance's candidacy, standing by or leading
     * @throws IllegalArgumentException if the name is empty or makes an invalid key
     * @throws LockException if the engine is shut down
     */
    public Leadership lead(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("The name of an election must not be empty");
        }
        engine.checkKey(Leadership.KEY_PREFIX + name);
        if (closed || engine.isClosed()) {
            throw new LockException("Cannot join the election '" + name + "': the lock manager is shut down");
        }
        while (true) {
            Candidacy existing = candidacies.get(name);
            if (existing != null) {
                return existing;
            }
            Candidacy made = new Candidacy(engine, name, standbyThreads, listener, this::forget);
            if (candidacies.putIfAbsent(name, made) == null) {
                if (closed) {
                    made.close(Reason.SHUTDOWN); // raced with closeAll, which may not have seen it
                    throw new LockException("Cannot join the election '" + name + "': the lock manager is shut down");
                }
                made.standBy();
                return made;
            }
        }
    }

    /**
     * Ends every candidacy and refuses new ones: at shutdown, before the engine revokes its locks (each term ends
     * before its lock is released), so a {@code @Leader} call during the shutdown skips instead of joining again.
     */
    public void closeAll() {
        stopJoining();
        for (Candidacy candidacy : List.copyOf(candidacies.values())) {
            candidacy.close(Reason.SHUTDOWN);
        }
    }

    /**
     * Refuses new candidacies from now on, and leaves the current ones be: at shutdown, before the engine
     * revokes its locks, which ends each term (told before the lock is released) along with every other lock.
     */
    public void stopJoining() {
        closed = true;
    }

    /** @return the names of the elections joined, for operations */
    public List<String> names() {
        return List.copyOf(candidacies.keySet());
    }

    private void forget(Candidacy candidacy) {
        candidacies.remove(candidacy.name(), candidacy);
    }
}
