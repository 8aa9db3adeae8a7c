package dev.baton.jpa.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * How long one store call may take: lock waits end at its deadline ({@link #remainingMillis()}), and
 * every JDBC connection the call uses gets a network timeout that ends
 * {@value #NETWORK_ALLOWANCE_MILLIS} ms after that deadline, so a database that stops answering
 * fails the call instead of holding it (a connection taken after that point, e.g. when the provider
 * retries on another one, gets 1 ms). The network timeout is set on a connection as soon as the call has it (before the
 * transaction begins, where the JPA provider lets the store see it: see {@link JdbcAccess}) and put
 * back to its previous value before the connection returns to its pool.
 *
 * <p>The current call's bound is a thread-local: the store opens it around one operation, on the
 * caller's thread, and the provider hooks that see the connection read it from there.
 */
public final class CallBound implements AutoCloseable {

    /** What a round trip may take on top of the time the call may wait for locks. */
    public static final long NETWORK_ALLOWANCE_MILLIS = 2_000;

    private static final ThreadLocal<CallBound> CURRENT = new ThreadLocal<>();
    private static final Executor DIRECT = Runnable::run;

    private final long maxWaitMillis;
    private final long deadline;
    private final long networkDeadline;
    private final CallBound outer;
    private final Map<Connection, Integer> attached = new IdentityHashMap<>();

    private CallBound(long maxWaitMillis, CallBound outer) {
        this.maxWaitMillis = maxWaitMillis;
        this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        this.networkDeadline = deadline + TimeUnit.MILLISECONDS.toNanos(NETWORK_ALLOWANCE_MILLIS);
        this.outer = outer;
    }

    /**
     * Starts the bound of a call on this thread; close it when the call ends.
     *
     * @param maxWaitMillis how long the call may wait for locks, {@code >= 0}
     * @return the bound, now {@linkplain #current() current}
     */
    public static CallBound open(long maxWaitMillis) {
        CallBound bound = new CallBound(Math.max(0, maxWaitMillis), CURRENT.get());
        CURRENT.set(bound);
        return bound;
    }

    /** @return the bound of the call running on this thread, or null */
    public static CallBound current() {
        return CURRENT.get();
    }

    /** @return the wait the call was given */
    public long maxWaitMillis() {
        return maxWaitMillis;
    }

    /** @return how long the call may still wait for a lock, {@code >= 0} */
    public long remainingMillis() {
        long left = deadline - System.nanoTime();
        return left <= 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(left + 999_999);
    }

    /** @return whether the call may wait no longer */
    public boolean expired() {
        return deadline - System.nanoTime() <= 0;
    }

    /** @return the network timeout a connection gets now: until the deadline plus the allowance, at least 1 ms */
    public int networkTimeoutMillis() {
        long left = TimeUnit.NANOSECONDS.toMillis(networkDeadline - System.nanoTime());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left));
    }

    /**
     * The statement timeout, a last resort for a connection whose network timeout could not be set: a second
     * after the network timeout, so that one fires first where it is set. A query timeout cancels over a new
     * connection, and on a database that stops answering that cancel waits too (pgjdbc: its
     * {@code cancelSignalTimeout}, 10 s), with the statement waiting for it.
     *
     * @return the statement timeout in whole seconds (JDBC's unit), at least 2
     */
    public int queryTimeoutSeconds() {
        return (int) Math.min(Integer.MAX_VALUE, (networkTimeoutMillis() + 999L) / 1000 + 1);
    }

    /**
     * Bounds the round trips on {@code connection} by this call's network timeout, unless this call
     * did already. A driver or pool that cannot set it is left alone (the statements still carry a
     * query timeout and lock wait limits).
     *
     * @param connection a connection the call is about to use
     * @return whether this call set it now (and must {@link #detach} it)
     */
    public boolean attach(Connection connection) {
        if (connection == null || attached.containsKey(connection)) {
            return false;
        }
        try {
            int previous = connection.getNetworkTimeout();
            connection.setNetworkTimeout(DIRECT, networkTimeoutMillis());
            attached.put(connection, previous);
            return true;
        } catch (SQLException | RuntimeException | AbstractMethodError e) {
            // not supported (an embedded database, an old pool's wrapper): nothing to put back either
            attached.put(connection, null);
            return true;
        }
    }

    /**
     * Puts the connection's network timeout back as it was before {@link #attach}.
     *
     * @param connection the connection
     */
    public void detach(Connection connection) {
        if (!attached.containsKey(connection)) {
            return;
        }
        Integer previous = attached.remove(connection);
        if (previous == null) {
            return;
        }
        try {
            if (!connection.isClosed()) {
                connection.setNetworkTimeout(DIRECT, previous);
            }
        } catch (SQLException | RuntimeException e) {
            // a connection that failed is closed by its driver; the pool drops it
        }
    }

    /** Ends the call: puts back what is still attached, and the outer call's bound becomes current again. */
    @Override
    public void close() {
        for (Connection connection : new ArrayList<>(attached.keySet())) {
            detach(connection);
        }
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }

    @Override
    public String toString() {
        return "call bound of " + maxWaitMillis + " ms, " + remainingMillis() + " ms left";
    }
}
