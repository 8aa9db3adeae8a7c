package dev.baton.redis.internal;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreException;
import io.lettuce.core.api.StatefulConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The store's command connection and how a call waits for Redis: the connection opens at the first call (the
 * server's {@code maxmemory-policy} checked with it, see {@link EvictionPolicy}) and again at a call after it
 * failed; each call waits for it, and for its answer, until the call's deadline; a failure becomes a
 * {@link LockStoreException} with the cause (a refused policy a {@link LockConfigurationException}), a missing
 * answer one that says so. Lettuce reconnects an open connection by itself.
 */
public final class StoreConnection {

    private static final System.Logger LOG = System.getLogger(RedisMessage.LOGGER);

    private final RedisConnector connector;
    private final boolean allowEviction;

    /** Guards opening and closing; the fields it writes are read without it on every call. */
    private final ReentrantLock setup = new ReentrantLock();

    private volatile CompletableFuture<RedisConnector.Connection> connecting;
    private volatile boolean closed;

    /**
     * @param connector opens the connection
     * @param allowEviction whether a server whose policy evicts keys is accepted (with a warning)
     */
    public StoreConnection(RedisConnector connector, boolean allowEviction) {
        this.connector = connector;
        this.allowEviction = allowEviction;
    }

    /**
     * @param timeoutMillis how long a call may take from now
     * @return its deadline, on {@link System#nanoTime()}'s scale
     */
    public static long deadline(long timeoutMillis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /**
     * The open connection, opening it if it is not (or failed before).
     *
     * @param deadline until when the call may wait for it
     * @param what the call, for messages
     * @return the connection
     * @throws LockStoreException if the store is closed, or the connection failed or did not open in time
     * @throws LockConfigurationException if the server's eviction policy is refused
     */
    public RedisConnector.Connection open(long deadline, String what) {
        CompletableFuture<RedisConnector.Connection> future = connecting;
        if (future != null && future.isDone() && !future.isCompletedExceptionally()) {
            return future.join(); // the usual case, without the lock
        }
        setup.lock();
        try {
            requireOpen();
            if (connecting == null || connecting.isCompletedExceptionally()) {
                // A refused eviction policy fails the connection, so every operation checks again until
                // the server is fixed (no restart needed).
                connecting = connector.connect().thenCompose(this::checkEviction);
                connecting.thenAccept(c -> RedisMessage.CONNECTED.log(LOG, connector));
            }
            future = connecting;
        } finally {
            setup.unlock();
        }
        return await(future, deadline, "connecting to Redis for " + what);
    }

    /** @return the connection, once the server's maxmemory-policy is one the store may run on */
    private CompletableFuture<RedisConnector.Connection> checkEviction(RedisConnector.Connection connection) {
        return EvictionPolicy.check(connection, connector.toString(), allowEviction)
                .whenComplete((ok, failure) -> {
                    if (failure != null) {
                        connection.connection().closeAsync();
                    }
                })
                .thenApply(ok -> connection);
    }

    /**
     * Waits for Redis until the deadline.
     *
     * @param future Redis' answer
     * @param deadline until when
     * @param what the call, for messages
     * @param <T> the answer's type
     * @return the answer
     * @throws LockStoreException if Redis failed, did not answer in time, or the thread was interrupted
     * @throws LockConfigurationException if the server's eviction policy was refused
     */
    public <T> T await(CompletableFuture<T> future, long deadline, String what) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new LockStoreException("Redis (" + connector + ") did not answer " + what + " in time", e);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof LockConfigurationException refused) {
                throw new LockConfigurationException(refused.getMessage(), refused);
            }
            throw new LockStoreException("Redis (" + connector + ") failed " + what + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException("Interrupted while waiting for Redis (" + connector + "): " + what, e);
        }
    }

    /**
     * @param failure a failure, possibly wrapped by a future
     * @return the failure inside the wrappers
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** @throws LockStoreException if the store is closed */
    public void requireOpen() {
        if (closed) {
            throw new LockStoreException("The Redis lock store is closed (" + connector + ")");
        }
    }

    /**
     * Refuses calls from now on and closes the connection.
     *
     * @return whether it was open: false at the second call, which does nothing
     */
    public boolean close() {
        CompletableFuture<RedisConnector.Connection> connection;
        setup.lock();
        try {
            if (closed) {
                return false;
            }
            closed = true;
            connection = connecting;
            connecting = null;
        } finally {
            setup.unlock();
        }
        if (connection != null) {
            closeQuietly(connection.thenApply(RedisConnector.Connection::connection));
        }
        return true;
    }

    /**
     * Closes a connection now if it is open, when it opens if it is still opening, and not at all if it failed.
     *
     * @param future the connection
     */
    public static void closeQuietly(CompletableFuture<? extends StatefulConnection<?, ?>> future) {
        if (future.isDone() && !future.isCompletedExceptionally()) {
            future.join().close();
        } else {
            future.thenAccept(StatefulConnection::closeAsync); // still connecting: close when there
        }
    }
}
