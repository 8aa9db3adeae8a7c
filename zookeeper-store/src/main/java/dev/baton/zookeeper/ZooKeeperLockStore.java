package dev.baton.zookeeper;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.zookeeper.internal.KeyPaths;
import dev.baton.zookeeper.internal.ReleaseWatch;
import dev.baton.zookeeper.internal.ZkSession;
import dev.baton.zookeeper.internal.ZooKeeperLocks;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Consumer;
import org.apache.zookeeper.client.ConnectStringParser;

/**
 * The ZooKeeper lock store: a lock is an ephemeral node of the store instance's ZooKeeper session, so the ensemble
 * itself frees the locks of a process that died or lost its session, and locks replicate through ZooKeeper's
 * consensus: a lock survives the loss of a server of the ensemble, a leader election, a restart of the whole
 * ensemble (if its session does not expire meanwhile) — no failover window.
 *
 * <ul>
 * <li><b>Atomic</b>: each operation is one {@code multi} transaction: acquire writes the key's node and creates its
 * lock node (which fails while another exists), release deletes the lock node only if the key node's version is
 * still the one of this acquisition, a hand-over does both for the next owner.</li>
 * <li><b>Fencing tokens</b> are ZooKeeper's own transaction ids ({@code zxid}) of the acquiring transaction: one
 * sequence for the whole ensemble, growing with every write, across sessions, restarts and leader changes, so a
 * key's tokens grow with each acquisition and never go back (unless the ensemble's data is wiped).</li>
 * <li><b>Locks end with the session</b> ({@link StoreCapability#ENDS_WITH_CONNECTION}): the instance keeps each
 * lock's ttl (ZooKeeper has none) and ends a lock it did not renew in time; a renewal checks the node. A session
 * the server expires ends all of the instance's locks at once. The store tells a holder its lock is lost from the
 * moment its session <em>may</em> have expired: when no request the session sent in the last two thirds of the
 * session timeout has been answered, a third of the timeout before the server can end the session (the session
 * pings every sixth of it; see docs/stores.md for what this leaves).</li>
 * <li><b>Release notification</b>: one persistent recursive watch on the root node tells every deletion of a
 * lock node — release, hand-over, ttl, an expired session — to the instance's listeners.</li>
 * <li><b>Bounded calls</b>: ZooKeeper never makes a call wait for another caller's lock, so a call's bound only
 * limits how long the store waits for the answer: its {@code maxWaitMillis}, but at least
 * {@value ZooKeeperLocks#MIN_ANSWER_MILLIS} ms and at most the {@linkplain Builder#operationTimeout operation
 * timeout}, which also bounds calls without one. A write whose answer does not come in time may still be applied:
 * the store deletes the node it may have left once the server answers again.</li>
 * </ul>
 * Nodes: {@code <root>/<key>} (a container node, removed by the server some time after its last lock) and
 * {@code <root>/<key>/lock} (the lock: ephemeral, the owner token as data); keys are escaped into node names
 * ({@code %XX} for anything but letters, digits and {@code -_:=@,+~;!$}).
 *
 * <p>The store connects lazily, at its first operation; the ZooKeeper client reconnects by itself within its
 * session, and the store makes a new session after the server expired the last one. Create one with
 * {@link #builder(String)}, or let {@code baton.store=zookeeper} create it from configuration.
 */
public final class ZooKeeperLockStore implements LockStore {

    /** The root node when none is set. */
    public static final String DEFAULT_ROOT = "/baton";

    /** The session timeout asked for when none is set: three renewal intervals of the default 30 s lease. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);

    /** The operation timeout when none is set. */
    public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofSeconds(5);

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.ENDS_WITH_CONNECTION,
            StoreCapability.RELEASE_NOTIFICATION,
            StoreCapability.NUL_IN_KEYS,
            StoreCapability.HAND_OVER);

    private final String description;
    private final ZkSession session;
    private final ZooKeeperLocks locks;
    private final ReleaseWatch releases;
    /** The ttls, the session's pings and the clean-ups of calls left in doubt: one thread per instance. */
    private final ScheduledExecutorService timer;

    private ZooKeeperLockStore(Builder builder) {
        KeyPaths paths = new KeyPaths(builder.root);
        this.description = "zookeeper (" + builder.connect + ", root " + builder.root + ")";
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "baton-zookeeper-timer");
            thread.setDaemon(true);
            return thread;
        });
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        this.session = new ZkSession(builder.connect, (int) builder.sessionTimeout.toMillis(), timer, description);
        long operationMillis = builder.operationTimeout.toMillis();
        this.locks = new ZooKeeperLocks(session, paths, operationMillis, timer, description);
        this.releases = new ReleaseWatch(session, paths, operationMillis);
    }

    /**
     * A store with a ZooKeeper client of its own, closed when the store closes.
     *
     * @param connect the ensemble: {@code host:port[,host:port...][/chroot]}
     * @return the builder
     * @throws IllegalArgumentException if {@code connect} is not a connect string
     */
    public static Builder builder(String connect) {
        return new Builder(connect);
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        // no turns, no shared leases: the runtime sends neither to a store that does not declare them
        return locks.acquire(
                acquisition.key(), acquisition.owner(), acquisition.ttlMillis(), acquisition.maxWaitMillis());
    }

    @Override
    public boolean renew(Renewal renewal) {
        return locks.renew(renewal.key(), renewal.owner(), renewal.ttlMillis(), renewal.maxWaitMillis());
    }

    @Override
    public boolean release(String key, String owner) {
        return locks.release(key, owner);
    }

    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        HandOverResult.requireHandOverTo(next);
        return locks.handOver(owner, next.key(), next.owner(), next.ttlMillis(), next.maxWaitMillis());
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        return releases.subscribe(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    /** Ends the session: the server deletes the instance's lock nodes at once. A second call does nothing. */
    @Override
    public void close() {
        locks.close();
        session.close();
        timer.shutdownNow();
    }

    @Override
    public String toString() {
        return description;
    }

    /** Settings of a {@link ZooKeeperLockStore}, checked as they are set. */
    public static final class Builder {

        private final String connect;
        private String root = DEFAULT_ROOT;
        private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
        private Duration operationTimeout = DEFAULT_OPERATION_TIMEOUT;

        private Builder(String connect) {
            Objects.requireNonNull(connect, "connect");
            if (connect.isBlank()) {
                throw new IllegalArgumentException(
                        "the ZooKeeper connect string is empty: give host:port[,host:port...][/chroot]");
            }
            try {
                new ConnectStringParser(connect);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "'" + connect + "' is not a ZooKeeper connect string: " + e.getMessage(), e);
            }
            this.connect = connect.strip();
        }

        /**
         * @param root the node below which the store keeps its nodes (default {@value ZooKeeperLockStore#DEFAULT_ROOT}); stores on
         *     different roots never see each other's locks
         * @return this builder
         * @throws IllegalArgumentException if it is not an absolute ZooKeeper path of its own
         */
        public Builder root(String root) {
            this.root = KeyPaths.requireValidRoot(root);
            return this;
        }

        /**
         * @param timeout the session timeout to ask for (default 30 s; the server keeps it between 2 and 20 of its
         *     ticks): how long the server waits for a silent holder before it frees its locks
         * @return this builder
         * @throws IllegalArgumentException if not between 1 ms and {@link Integer#MAX_VALUE} ms
         */
        public Builder sessionTimeout(Duration timeout) {
            this.sessionTimeout = requireMillis(timeout, Integer.MAX_VALUE, "sessionTimeout");
            return this;
        }

        /**
         * @param timeout how long a call waits for the server when the caller gives no bound, and at most when it
         *     does (default 5 s)
         * @return this builder
         * @throws IllegalArgumentException if not between 1 ms and 365 days
         */
        public Builder operationTimeout(Duration timeout) {
            this.operationTimeout =
                    requireMillis(timeout, dev.baton.spi.LockArguments.MAX_DURATION_MILLIS, "operationTimeout");
            return this;
        }

        private static Duration requireMillis(Duration timeout, long maxMillis, String name) {
            Objects.requireNonNull(timeout, name);
            if (timeout.toMillis() < 1 || timeout.toMillis() > maxMillis) {
                throw new IllegalArgumentException(
                        name + " must be from 1 ms to " + maxMillis + " ms, was " + timeout.toMillis() + " ms");
            }
            return timeout;
        }

        /** @return a new store; it connects at its first operation */
        public ZooKeeperLockStore build() {
            return new ZooKeeperLockStore(this);
        }
    }
}
