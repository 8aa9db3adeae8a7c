package dev.baton.jpa.internal;

import dev.baton.LockStoreException;
import dev.baton.jpa.JpaLockStore;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A store's purge of rows whose lease ended long ago ({@code purge-after}): on a thread of its own every purge
 * interval, or when asked ({@link JpaLockStore#purgeExpired}). One instance at a time purges a table, under the
 * store's lock {@link JpaLockStore#PURGE_KEY}.
 */
public final class Purger implements AutoCloseable {

    /** The key of the purge lock, published as {@link JpaLockStore#PURGE_KEY}. */
    public static final String KEY = "__baton_jpa_purge__";

    /** The purges of one run at most, so one run ends; the next run goes on. */
    private static final int MAX_PURGE_BATCHES = 1_000;

    private static final System.Logger LOG = System.getLogger("dev.baton.jpa.JpaLockStore");

    private final LockOperations locks;
    private final StoreConnector connector;
    private final String table;
    private final long statementTimeoutMillis;
    /** 0: no purge. */
    private final long purgeAfterMillis;

    private final long purgeIntervalMillis;
    private final int purgeBatch;
    private final String purgeOwner = "purge-" + UUID.randomUUID();
    /** Null when the store does not purge. */
    private final ScheduledExecutorService executor;
    /** For tests: runs between the read of a batch's candidates and their delete. */
    private volatile Consumer<List<String>> beforePurgeDelete = keys -> {};

    /**
     * Starts the purge thread if the settings ask for a purge; the first purge runs one interval later.
     *
     * @param locks the store's locks, for the purge lock
     * @param connector runs the purge's statements
     * @param settings the store's settings
     */
    public Purger(LockOperations locks, StoreConnector connector, StoreSettings settings) {
        this.locks = locks;
        this.connector = connector;
        this.table = settings.table();
        this.statementTimeoutMillis = settings.statementTimeoutMillis();
        this.purgeAfterMillis = settings.purgeAfterMillis();
        this.purgeIntervalMillis = settings.purgeIntervalMillis();
        this.purgeBatch = settings.purgeBatch();
        if (purgeAfterMillis > 0) {
            String name = "baton-jpa-purge[" + table + "]";
            executor = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
            executor.scheduleWithFixedDelay(
                    this::scheduledPurge, purgeIntervalMillis, purgeIntervalMillis, TimeUnit.MILLISECONDS);
        } else {
            executor = null;
        }
    }

    /**
     * Purges now (see {@link JpaLockStore#purgeExpired}).
     *
     * @return how many rows it deleted, or empty when another instance (or store) holds the purge lock
     * @throws IllegalStateException if the store has no {@code purge-after}
     * @throws LockStoreException if a statement failed (rows deleted by earlier batches stay deleted)
     */
    public OptionalLong purge() {
        if (purgeAfterMillis == 0) {
            throw new IllegalStateException("The JPA lock store has no purge-after: it does not purge");
        }
        long lease = 4 * (statementTimeoutMillis + CallBound.NETWORK_ALLOWANCE_MILLIS) + 30_000L;
        if (!locks.acquire(KEY, purgeOwner, lease, 0, null).isAcquired()) {
            return OptionalLong.empty();
        }
        try {
            long deleted = 0;
            for (int batch = 0; batch < MAX_PURGE_BATCHES; batch++) {
                if (batch > 0 && !locks.renew(KEY, purgeOwner, lease, statementTimeoutMillis)) {
                    break; // the purge lock is lost (a stall): another instance may go on
                }
                List<String> keys = connector.execute(
                        "purge",
                        KEY,
                        statementTimeoutMillis,
                        (d, c, b) -> d.purgeCandidates(c, purgeAfterMillis, purgeBatch, b),
                        null);
                if (keys.isEmpty()) {
                    break;
                }
                beforePurgeDelete.accept(List.copyOf(keys));
                deleted += connector.execute(
                        "purge", KEY, statementTimeoutMillis, (d, c, b) -> d.purge(c, keys, purgeAfterMillis, b), null);
                if (keys.size() < purgeBatch) {
                    break;
                }
            }
            return OptionalLong.of(deleted);
        } finally {
            try {
                locks.release(KEY, purgeOwner);
            } catch (RuntimeException e) {
                JpaMessage.PURGE_LOCK_NOT_RELEASED.log(LOG, e);
            }
        }
    }

    private void scheduledPurge() {
        if (connector.isClosed()) {
            return;
        }
        try {
            OptionalLong deleted = purge();
            JpaMessage.PURGED.log(
                    LOG, table, deleted.isPresent() ? deleted.getAsLong() + " rows" : "another instance purges");
        } catch (RuntimeException e) {
            if (!connector.isClosed()) {
                JpaMessage.PURGE_FAILED.log(LOG, table, purgeIntervalMillis, e);
            }
        }
    }

    /**
     * For tests: runs between the read of each batch's candidates and their delete.
     *
     * @param hook told the keys about to be deleted
     */
    public void beforePurgeDelete(Consumer<List<String>> hook) {
        this.beforePurgeDelete = Objects.requireNonNull(hook);
    }

    /** Stops the purge thread; a purge under way ends at its next statement (the store refuses it). */
    @Override
    public void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
