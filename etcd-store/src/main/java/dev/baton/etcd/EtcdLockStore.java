package dev.baton.etcd;

import dev.baton.etcd.internal.EtcdKeys;
import dev.baton.etcd.internal.EtcdLocks;
import dev.baton.etcd.internal.EtcdSession;
import dev.baton.etcd.internal.ReleaseWatch;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import io.etcd.jetcd.Client;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Consumer;

/**
 * The etcd lock store: a lock is an etcd key bound to the store instance's lease, so the cluster itself frees the
 * locks of a process that died or stopped keeping its lease alive, and locks replicate through etcd's Raft log: a
 * lock survives the loss of a member, a leader election, a restart of the whole cluster — no failover window.
 *
 * <ul>
 * <li><b>Atomic</b>: each operation is one transaction: acquire puts the key only if it does not exist, release
 * deletes it only if its {@code mod_revision} is still the one of this acquisition, a hand-over puts the next owner
 * under the same condition.</li>
 * <li><b>Fencing tokens</b> are etcd's own revisions: the revision of the acquiring transaction. One sequence for
 * the whole cluster, growing with every write, across leases, restarts and leader changes, so a key's tokens grow
 * with each acquisition and never go back (unless the cluster's data is wiped).</li>
 * <li><b>Locks end with the lease</b> ({@link StoreCapability#ENDS_WITH_CONNECTION}): the instance keeps each
 * lock's ttl (etcd's lease is the instance's, not the lock's) and ends a lock it did not renew in time; a renewal
 * checks the key. A lease the server expires ends all of the instance's locks at once. The store tells a holder its
 * lock is lost from the moment its lease <em>may</em> have expired: when no keep-alive sent in the last two thirds
 * of the lease's ttl has been answered, a third of the ttl before the server can delete the keys (a keep-alive goes
 * every sixth of it; see docs/stores.md for what this leaves).</li>
 * <li><b>Release notification</b>: one watch on the root's prefix tells every deletion of a lock key — release,
 * ttl, an expired or revoked lease — to the instance's listeners.</li>
 * <li><b>Bounded calls</b>: etcd never makes a call wait for another caller's lock, so a call's bound only limits how
 * long the store waits for the answer: its {@code maxWaitMillis}, but at least {@value EtcdLocks#MIN_ANSWER_MILLIS}
 * ms and at most the {@linkplain Builder#operationTimeout operation timeout}, which also bounds calls without one.
 * A write whose answer does not come in time may still be applied: the store deletes the key it may have left once
 * the server answers again.</li>
 * </ul>
 * Keys: {@code <root>/<key>} (the key's UTF-8 bytes as they are; the owner token as value).
 *
 * <p>The store connects lazily, at its first operation; jetcd reconnects by itself, and the store takes a new lease
 * after the server expired the last one. Create one with {@link #builder(String...)}, or let {@code baton.store=etcd}
 * create it from configuration.
 */
public final class EtcdLockStore implements LockStore {

    /** The root when none is set. */
    public static final String DEFAULT_ROOT = "/baton";

    /** The lease's ttl when none is set: three renewal intervals of the default 30 s lock lease. */
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(30);

    /** The operation timeout when none is set. */
    public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofSeconds(5);

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.ENDS_WITH_CONNECTION,
            StoreCapability.RELEASE_NOTIFICATION,
            StoreCapability.NUL_IN_KEYS,
            StoreCapability.HAND_OVER);

    private final String description;
    private final EtcdSession session;
    private final EtcdLocks locks;
    private final ReleaseWatch releases;
    /** The ttls, the keep-alives, the clean-ups of calls left in doubt: one thread per instance. */
    private final ScheduledExecutorService timer;

    private EtcdLockStore(Builder builder) {
        EtcdKeys keys = new EtcdKeys(builder.root);
        this.description = "etcd (" + String.join(",", builder.endpoints) + ", root " + builder.root + ")";
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "baton-etcd-timer");
            thread.setDaemon(true);
            return thread;
        });
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        long operationMillis = builder.operationTimeout.toMillis();
        Client client = Client.builder()
                .endpoints(builder.endpoints.toArray(String[]::new))
                .connectTimeout(builder.operationTimeout)
                .build();
        this.session =
                new EtcdSession(client, Math.max(1, builder.leaseTtl.toSeconds()), operationMillis, timer, description);
        this.locks = new EtcdLocks(session, keys, operationMillis, timer, description);
        this.releases = new ReleaseWatch(session, keys, operationMillis, timer);
    }

    /**
     * A store with an etcd client of its own, closed when the store closes.
     *
     * @param endpoints the cluster's client URLs, e.g. {@code http://127.0.0.1:2379}
     * @return the builder
     * @throws IllegalArgumentException if there is none, or one is not an {@code http} URL with a host and a port
     *     ({@code https} is not offered yet)
     */
    public static Builder builder(String... endpoints) {
        return new Builder(endpoints);
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

    /** Revokes the lease: the server deletes the instance's lock keys at once. A second call does nothing. */
    @Override
    public void close() {
        locks.close();
        releases.close();
        session.close();
        timer.shutdownNow();
    }

    @Override
    public String toString() {
        return description;
    }

    /** Settings of an {@link EtcdLockStore}, checked as they are set. */
    public static final class Builder {

        private final List<String> endpoints;
        private String root = DEFAULT_ROOT;
        private Duration leaseTtl = DEFAULT_LEASE_TTL;
        private Duration operationTimeout = DEFAULT_OPERATION_TIMEOUT;

        private Builder(String... endpoints) {
            Objects.requireNonNull(endpoints, "endpoints");
            List<String> checked = new ArrayList<>();
            for (String endpoint : endpoints) {
                checked.add(requireEndpoint(endpoint));
            }
            if (checked.isEmpty()) {
                throw new IllegalArgumentException("no etcd endpoint given: give at least one, e.g. http://host:2379");
            }
            this.endpoints = List.copyOf(checked);
        }

        private static String requireEndpoint(String endpoint) {
            Objects.requireNonNull(endpoint, "endpoint");
            String e = endpoint.strip();
            URI uri;
            try {
                uri = new URI(e);
            } catch (URISyntaxException ex) {
                throw new IllegalArgumentException(
                        "'" + endpoint + "' is not an etcd endpoint URL (e.g. http://host:2379): " + ex.getMessage(),
                        ex);
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (scheme.equals("https")) {
                throw new IllegalArgumentException("'" + endpoint
                        + "': the etcd store does not speak TLS yet; give an http:// endpoint (a local"
                        + " TLS-terminating proxy in front of a secured cluster)");
            }
            if (!scheme.equals("http") || uri.getHost() == null || uri.getPort() < 1) {
                throw new IllegalArgumentException("'" + endpoint
                        + "' is not an etcd endpoint URL: give http://, a host and a port (e.g. http://host:2379)");
            }
            return e;
        }

        /**
         * @param root the prefix below which the store keeps its keys (default {@value EtcdLockStore#DEFAULT_ROOT}):
         *     starts with {@code /}, no trailing {@code /}; stores on different roots never see each other's locks
         *     (do not nest roots: {@code /a} would see the locks of {@code /a/b})
         * @return this builder
         * @throws IllegalArgumentException if it is not such a root
         */
        public Builder root(String root) {
            this.root = EtcdKeys.requireValidRoot(root);
            return this;
        }

        /**
         * @param ttl the ttl of the instance's lease (default 30 s; whole seconds, at least 1 s; the server may give
         *     more): how long the cluster waits for a silent holder before it frees its locks
         * @return this builder
         * @throws IllegalArgumentException if not whole seconds from 1 s to 365 days
         */
        public Builder leaseTtl(Duration ttl) {
            Objects.requireNonNull(ttl, "leaseTtl");
            if (ttl.toMillis() % 1_000 != 0 || ttl.toSeconds() < 1) {
                throw new IllegalArgumentException(
                        "leaseTtl must be whole seconds (etcd's leases count seconds), at least 1 s, was "
                                + ttl.toMillis() + " ms");
            }
            this.leaseTtl = requireMillis(ttl, "leaseTtl");
            return this;
        }

        /**
         * @param timeout how long a call waits for the server when the caller gives no bound, and at most when it
         *     does (default 5 s)
         * @return this builder
         * @throws IllegalArgumentException if not between 1 ms and 365 days
         */
        public Builder operationTimeout(Duration timeout) {
            this.operationTimeout = requireMillis(timeout, "operationTimeout");
            return this;
        }

        private static Duration requireMillis(Duration timeout, String name) {
            Objects.requireNonNull(timeout, name);
            long max = dev.baton.spi.LockArguments.MAX_DURATION_MILLIS;
            if (timeout.toMillis() < 1 || timeout.toMillis() > max) {
                throw new IllegalArgumentException(
                        name + " must be from 1 ms to " + max + " ms, was " + timeout.toMillis() + " ms");
            }
            return timeout;
        }

        /** @return a new store; it connects at its first operation */
        public EtcdLockStore build() {
            return new EtcdLockStore(this);
        }
    }
}
