package dev.baton.jpa.internal;

import dev.baton.jpa.LockMode;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Table mode: a row per key, written by one atomic statement per operation ({@link Dialect}), run by the
 * {@link StoreConnector}. On PostgreSQL releases are notified ({@link ReleaseListener}).
 *
 * <p>Shared leases ({@link SharedLeases}) take one transaction per operation. A renewal or release names no mode,
 * so it runs the exclusive statement first, which also tells, when it matched no lease, whether shared leases hold
 * the key (in the same statement on PostgreSQL and in a batch's read of lost leases on MariaDB; a read more
 * otherwise); only then the shared one runs. An exclusive lease costs what it did.
 */
public final class TableLocks implements LockOperations {

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.BATCH_RENEW,
            StoreCapability.WAITING_TURNS,
            StoreCapability.INSPECT,
            StoreCapability.SHARED_LOCKS);

    /** On PostgreSQL: releases are notified ({@code LISTEN/NOTIFY}). */
    private static final Set<StoreCapability> NOTIFYING_CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.BATCH_RENEW,
            StoreCapability.WAITING_TURNS,
            StoreCapability.INSPECT,
            StoreCapability.SHARED_LOCKS,
            StoreCapability.RELEASE_NOTIFICATION);

    /** Where the dialect passes a key in one statement (PostgreSQL): the sets above with hand-over. */
    private static final Set<StoreCapability> HANDING_CAPABILITIES = with(CAPABILITIES, StoreCapability.HAND_OVER);

    private static final Set<StoreCapability> NOTIFYING_HANDING_CAPABILITIES =
            with(NOTIFYING_CAPABILITIES, StoreCapability.HAND_OVER);

    private static Set<StoreCapability> with(Set<StoreCapability> capabilities, StoreCapability more) {
        EnumSet<StoreCapability> set = EnumSet.copyOf(capabilities);
        set.add(more);
        return set;
    }

    private final StoreConnector connector;
    private final long statementTimeoutMillis;
    private final boolean purges;
    private final ReentrantLock setup = new ReentrantLock();
    private volatile ReleaseListener releases;
    /** The statements of shared leases of the store's dialect, made at the first shared operation. */
    private volatile SharedLeases shared;

    /**
     * @param connector the store's connector
     * @param settings the store's settings
     */
    public TableLocks(StoreConnector connector, StoreSettings settings) {
        this.connector = connector;
        this.statementTimeoutMillis = settings.statementTimeoutMillis();
        this.purges = settings.purgeAfterMillis() > 0;
    }

    @Override
    public LockMode mode() {
        return LockMode.TABLE;
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn) {
        return connector.execute(
                "acquire",
                key,
                acquisitionWait(maxWaitMillis),
                (d, c, b) -> d.acquire(c, key, owner, ttlMillis, turn, b),
                AcquireResult::notAcquired);
    }

    @Override
    public AcquireResult acquireShared(
            String key, String owner, long ttlMillis, long maxWaitMillis, Turn turn, int sharedLimit) {
        return connector.execute(
                "acquire a shared lease of",
                key,
                acquisitionWait(maxWaitMillis),
                (d, c, b) -> shared(d).acquire(c, key, owner, ttlMillis, sharedLimit, turn, b),
                AcquireResult::notAcquired);
    }

    /** @return the statements of shared leases on {@code d}, the store's dialect (fixed once it connected) */
    private SharedLeases shared(Dialect d) {
        SharedLeases s = shared;
        if (s == null || !s.on(d)) {
            s = new SharedLeases(d); // immutable: two threads making one each is harmless
            shared = s;
        }
        return s;
    }

    /**
     * How long an acquisition's statement may wait for a row lock: its call's bound, or with a purge at most
     * the statement timeout (an acquisition then answers not acquired and the runtime polls again), so that
     * no acquisition's statement runs anywhere near {@code purge-after} ({@link StoreSettings#minimumPurgeAfter}).
     */
    private long acquisitionWait(long maxWaitMillis) {
        return purges ? Math.min(maxWaitMillis, statementTimeoutMillis) : maxWaitMillis;
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        return connector.execute(
                "renew",
                key,
                maxWaitMillis,
                (d, c, b) -> switch (d.renewExclusive(c, key, owner, ttlMillis, b)) {
                    case EXCLUSIVE -> true;
                    case NOTHING -> false;
                    case SHARED ->
                        !shared(d)
                                .renewAll(c, List.of(new Lease(key, owner)), ttlMillis, b)
                                .isEmpty();
                },
                null);
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        return connector.execute(
                "renewAll",
                leases.size() + " leases",
                maxWaitMillis,
                (d, c, b) -> {
                    Dialect.Renewals exclusive = d.renewAllExclusive(c, leases, ttlMillis, b);
                    if (exclusive.sharedKeys().isEmpty()) {
                        return exclusive.renewed();
                    }
                    List<Lease> others = leases.stream()
                            .filter(lease -> exclusive.sharedKeys().contains(lease.key()))
                            .filter(lease -> !exclusive.renewed().contains(lease))
                            .distinct()
                            .toList();
                    Set<Lease> all = new HashSet<>(exclusive.renewed());
                    all.addAll(shared(d).renewAll(c, others, ttlMillis, b));
                    return all;
                },
                null);
    }

    @Override
    public boolean release(String key, String owner) {
        return connector.execute(
                "release",
                key,
                statementTimeoutMillis,
                (d, c, b) -> switch (d.releaseExclusive(c, key, owner, b)) {
                    case EXCLUSIVE -> true;
                    case NOTHING -> false;
                    case SHARED -> shared(d).release(c, key, owner, b);
                },
                null);
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        return connector.execute(
                "leave the turn of", key, statementTimeoutMillis, (d, c, b) -> d.leaveTurn(c, key, waiter, b), null);
    }

    @Override
    public Optional<Holder> inspect(String key) {
        return connector.execute(
                "inspect",
                key,
                statementTimeoutMillis,
                (d, c, b) -> {
                    Optional<Holder> holder = d.inspect(c, key, b);
                    // a row without owner: shared leases hold the key, and the one with the greatest token is reported
                    return holder.isPresent() && holder.get().owner().equals(SharedLeases.NO_OWNER)
                            ? shared(d).inspect(c, key, b)
                            : holder;
                },
                null);
    }

    /**
     * {@inheritDoc} Once connected: release notification on a database whose releases can be notified (PostgreSQL),
     * on connections the store can keep (a data source, Hibernate ORM or EclipseLink); hand-over where the dialect
     * passes a key in one statement (PostgreSQL).
     */
    @Override
    public Set<StoreCapability> capabilities() {
        Dialect d = connector.dialectIfConnected();
        if (d == null) {
            return CAPABILITIES;
        }
        boolean notifies = d.releaseChannel().isPresent() && connector.lendsConnections();
        if (d.handsOver()) {
            return notifies ? NOTIFYING_HANDING_CAPABILITIES : HANDING_CAPABILITIES;
        }
        return notifies ? NOTIFYING_CAPABILITIES : CAPABILITIES;
    }

    /**
     * Only where {@link #capabilities} holds {@link StoreCapability#HAND_OVER}: the dialect's one statement; when
     * the owner held no live exclusive lock, {@code next}'s acquisition alone, as {@link #acquire} takes it: the
     * owner's shared lease, if it has one, stays (a hand-over passes an exclusive lock).
     */
    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        String key = next.key();
        long token = connector.execute(
                "hand over",
                key,
                statementTimeoutMillis,
                (d, c, b) -> d.handOver(c, key, owner, next.owner(), next.ttlMillis(), b),
                null);
        if (token > 0) {
            return new HandOverResult(true, AcquireResult.acquired(token));
        }
        if (token < 0) {
            return new HandOverResult(true, AcquireResult.notAcquired()); // kept for another waiter's turn
        }
        return new HandOverResult(false, acquire(key, next.owner(), next.ttlMillis(), next.maxWaitMillis(), null));
    }

    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        ReleaseListener r = releases;
        if (r == null) {
            setup.lock();
            try {
                if (releases == null) {
                    releases = new ReleaseListener(
                            connector::dedicatedConnection,
                            connector.dialect().releaseChannel().orElseThrow(),
                            statementTimeoutMillis);
                }
                r = releases;
            } finally {
                setup.unlock();
            }
        }
        return r.add(listener);
    }

    /** @return the listening connection's state, or null before the first {@link #onRelease}; for tests */
    public ReleaseListener releaseListener() {
        return releases;
    }

    @Override
    public void requireFencedWrites() {
        // fenced writes check the table's rows
    }

    @Override
    public void close() {
        ReleaseListener r = releases;
        if (r != null) {
            r.close(); // ends its connection before the factory may close
        }
    }
}
