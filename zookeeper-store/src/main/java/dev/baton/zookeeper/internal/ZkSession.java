package dev.baton.zookeeper.internal;

import dev.baton.LockStoreException;
import java.io.IOException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * The store instance's ZooKeeper session, made at the first call that needs it and made again after the server
 * expired it. Every lock of the store is an ephemeral node of one {@link Handle}'s session: when that session ends
 * (expired by the server, or closed with the store), the server deletes the nodes, and the locks are lost.
 *
 * <h2>When a lock is lost for its holder</h2>
 * The server expires a session when it has heard nothing from it for the session timeout {@code S}; it hears from
 * the session at each request. So a request sent at {@code t} whose answer came back proves that the session lives
 * until {@code t + S} at least. The handle keeps the send time of the latest request answered
 * ({@link Handle#answered}), pinging every {@code S/6} so that a healthy session always has a recent one, and counts
 * its locks lost ({@link Handle#mayHaveExpired}) once {@code 2S/3} have passed since: a third of the session timeout
 * before the server may end the session, left for the clocks' drift and the holder's own reaction. ZooKeeper's
 * client knows less: it calls a connection lost after {@code 2S/3} without hearing from the server, which a watch
 * event can reset, and by then the server may be about to expire the session.
 */
public final class ZkSession implements AutoCloseable {

    private final String connect;
    private final int sessionTimeoutMillis;
    private final String description;
    private final ScheduledExecutorService timer;
    private final CopyOnWriteArrayList<Consumer<Handle>> onConnected = new CopyOnWriteArrayList<>();
    private final Object guard = new Object();
    private Handle current; // guarded
    private boolean closed; // guarded

    /**
     * @param connect the connect string: {@code host:port[,host:port...][/chroot]}
     * @param sessionTimeoutMillis the session timeout asked for (the server may give another)
     * @param timer runs the pings
     * @param description the store, for messages
     */
    public ZkSession(String connect, int sessionTimeoutMillis, ScheduledExecutorService timer, String description) {
        this.connect = connect;
        this.sessionTimeoutMillis = sessionTimeoutMillis;
        this.timer = timer;
        this.description = description;
    }

    /**
     * Calls {@code listener} each time a handle connects or reconnects, on ZooKeeper's event thread (it must not
     * block); a handle's first connection starts its session.
     *
     * @param listener told the handle
     */
    public void onConnected(Consumer<Handle> listener) {
        onConnected.add(listener);
    }

    /**
     * The live handle, made if there is none: its calls are queued by the client until it connects.
     *
     * @return the handle
     * @throws LockStoreException if the store is closed or the client cannot be made
     */
    public Handle handle() {
        synchronized (guard) {
            if (closed) {
                throw new LockStoreException(description + " is closed");
            }
            if (current == null || current.expired) {
                Handle h = new Handle();
                try {
                    h.zk = new ZooKeeper(connect, sessionTimeoutMillis, h);
                } catch (IOException | RuntimeException e) {
                    throw new LockStoreException(
                            description + " could not make a ZooKeeper client for " + connect + ": " + e.getMessage(),
                            e);
                }
                current = h;
            }
            return current;
        }
    }

    /** Closes the session: the server deletes its ephemeral nodes, so every lock of the store ends at once. */
    @Override
    public void close() {
        Handle h;
        synchronized (guard) {
            if (closed) {
                return;
            }
            closed = true;
            h = current;
            current = null;
        }
        if (h != null) {
            h.expired = true;
            try {
                h.zk.close(sessionTimeoutMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One ZooKeeper client, and so one session: the locks it took live and die with it. */
    public final class Handle implements Watcher {

        private volatile ZooKeeper zk;
        /** {@link System#nanoTime()} at which the latest request that was answered was sent; 0: none yet. */
        private final AtomicLong answeredSend = new AtomicLong();

        private volatile boolean expired;
        private volatile boolean connectedOnce;
        private volatile ScheduledFuture<?> pings;

        private Handle() {}

        /** @return the client */
        public ZooKeeper zk() {
            return zk;
        }

        /** @return whether the session is over: expired, or the store closed */
        public boolean expired() {
            return expired;
        }

        /** @return whether the client has ever connected: before that, no request of it reached a server */
        public boolean connectedOnce() {
            return connectedOnce;
        }

        /**
         * Records that a request sent at {@code sentAt} was answered: the server heard from the session then.
         *
         * @param sentAt its {@link System#nanoTime()} when sent
         */
        public void answered(long sentAt) {
            answeredSend.accumulateAndGet(Math.max(1, sentAt), Math::max);
        }

        /**
         * Whether the server may have ended this session, so its locks may be another's: it expired, or no request
         * sent in the last two thirds of the session timeout was answered (see the class comment).
         *
         * @param now {@link System#nanoTime()}
         * @return true if the locks of this session can no longer be counted on
         */
        public boolean mayHaveExpired(long now) {
            return expired || graceLeftNanos(now) == 0;
        }

        /**
         * @param now {@link System#nanoTime()}
         * @return how long the session's locks may yet be counted on without another answer, in nanoseconds
         */
        public long graceLeftNanos(long now) {
            long sent = answeredSend.get();
            return sent == 0 ? 0 : Math.max(0, sent + graceNanos() - now);
        }

        /** Two thirds of the session timeout the server gave (the one asked for until it answered). */
        private long graceNanos() {
            return TimeUnit.MILLISECONDS.toNanos(Math.max(1, negotiatedMillis() * 2L / 3));
        }

        private int negotiatedMillis() {
            ZooKeeper z = zk;
            return z == null ? sessionTimeoutMillis : z.getSessionTimeout();
        }

        /** Asks the server something small, so that a session with nothing else to say is heard from. */
        private void ping() {
            ZooKeeper z = zk;
            if (expired || z == null) {
                ScheduledFuture<?> p = pings;
                if (p != null) {
                    p.cancel(false);
                }
                return;
            }
            long sentAt = System.nanoTime();
            z.exists(
                    "/",
                    false,
                    (rc, path, ctx, stat) -> {
                        Code code = Code.get(rc);
                        if (code == Code.OK || code == Code.NONODE) {
                            answered(sentAt);
                        }
                    },
                    null);
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None) {
                return; // node events go to the watchers that asked for them
            }
            switch (event.getState()) {
                case SyncConnected, ConnectedReadOnly -> {
                    connectedOnce = true;
                    if (pings == null) {
                        startPings();
                    }
                    onConnected.forEach(listener -> listener.accept(this));
                }
                case Expired, Closed, AuthFailed -> expired = true;
                default -> {
                    // Disconnected: the client reconnects by itself, and the answers tell how long the locks last
                }
            }
        }

        private synchronized void startPings() {
            if (pings == null) {
                long period = Math.max(1, negotiatedMillis() / 6);
                try {
                    pings = timer.scheduleWithFixedDelay(this::ping, period, period, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // the store closed meanwhile
                }
            }
        }

        @Override
        public String toString() {
            ZooKeeper z = zk;
            return "session 0x" + (z == null ? "?" : Long.toHexString(z.getSessionId())) + (expired ? " (over)" : "");
        }
    }
}
