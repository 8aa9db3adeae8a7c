package dev.baton.impl.engine;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.logging.BatonLog;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps one engine's held locks renewed, and reports a lock lost when its lease is over.
 *
 * <p>The scheduler only keeps time; store calls run on their own executor, so a store call that hangs
 * holds up neither the clock nor the other locks' renewals. Each lock has at most one renewal in flight.
 * A failing renewal is retried until the lease is over by the local monotonic clock; then, or at once
 * when the store answers that the owner no longer holds the key, the lock is lost. A watchdog on the
 * scheduler reports the loss at the lease's end even while a renewal call is still under way.
 *
 * <p>With a store that renews in batches ({@code BATCH_RENEW}), a renewal that falls due takes along
 * every other lock of the same ttl due within half a renewal interval: one round trip for many locks,
 * each renewed at most half an interval early.
 */
final class Renewals {

    /** What the engine does with a lock that is lost. */
    @FunctionalInterface
    interface Losses {
        void lose(HeldLock lock, String reason, Throwable cause);
    }

    private static final long RETRY_MAX_MILLIS = 1_000;
    private static final String RENEWALS_FAILED = "renewing failed until its lease was over";
    private static final String DISOWNED = "the store says this owner no longer holds it (its lease expired, or another owner took it)";

    private final LockStore store;
    private final ManagerSettings settings;
    private final ScheduledExecutorService scheduler;
    private final Executor storeCalls;
    private final boolean batches;
    private final Collection<HeldLock> held;
    private final Losses losses;

    /**
     * @param held the engine's live set of held locks (read to form batches)
     */
    Renewals(LockStore store, ManagerSettings settings, ScheduledExecutorService scheduler, Executor storeCalls,
            boolean batches, Collection<HeldLock> held, Losses losses) {
        this.store = store;
        this.settings = settings;
        this.scheduler = scheduler;
        this.storeCalls = storeCalls;
        this.batches = batches;
        this.held = held;
        this.losses = losses;
    }

    /** Starts renewing a lock just acquired, and watching its lease. */
    void start(HeldLock lock) {
        schedule(lock, interval(lock));
        watchLease(lock);
    }

    private long interval(HeldLock lock) {
        return settings.renewIntervalMillis(lock.ttlMillis());
    }

    private void schedule(HeldLock lock, long delayMillis) {
        long delay = Math.max(1, delayMillis);
        lock.renewalDueAt(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay));
        try {
            lock.renewal(scheduler.schedule(() -> due(lock), delay, TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException e) {
            // The scheduler is shutting down (application stop): the lease runs out by itself.
            BatonLog.renewalFailed(lock.key(), e);
        }
    }

    /** On the scheduler: hands the store call to the store-call executor, so the clock never waits for a store. */
    private void due(HeldLock lock) {
        if (!lock.stillHeldState() || !lock.startRenewing()) {
            return; // released, lost, or already taken along by another lock's batch
        }
        List<HeldLock> batch = batches ? batchWith(lock) : List.of(lock);
        try {
            storeCalls.execute(() -> renew(batch));
        } catch (RejectedExecutionException e) {
            // Shutting down (application stop): the lease runs out by itself; the watchdog reports it.
            batch.forEach(HeldLock::renewingDone);
            BatonLog.renewalFailed(lock.key(), e);
        }
    }

    /** The lock whose renewal is due, and the others of the same ttl due within half an interval. */
    private List<HeldLock> batchWith(HeldLock first) {
        List<HeldLock> batch = new ArrayList<>();
        batch.add(first);
        long horizon = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(interval(first)) / 2;
        for (HeldLock other : held) {
            if (other != first && other.ttlMillis() == first.ttlMillis() && other.stillHeldState()
                    && other.renewalDueAt() - horizon <= 0 && other.startRenewing()) {
                other.cancelRenewal();
                batch.add(other);
            }
        }
        return batch;
    }

    private void renew(List<HeldLock> batch) {
        long sentAt = System.nanoTime();
        List<HeldLock> live = new ArrayList<>(batch.size());
        for (HeldLock lock : batch) {
            if (!lock.stillHeldState()) {
                lock.renewingDone();
            } else if (sentAt - lock.leaseEndNanos() >= 0) {
                lock.renewingDone();
                Throwable failure = lock.renewalFailure();
                losses.lose(lock, failure != null ? RENEWALS_FAILED
                        : "its lease ran out before it could be renewed", failure);
            } else {
                live.add(lock);
            }
        }
        if (live.isEmpty()) {
            return;
        }
        long ttl = live.get(0).ttlMillis();
        Set<Lease> renewed;
        try {
            // without batches a renewal is the one lock it fell due for
            renewed = batches ? store.renewAll(leases(live), ttl) : single(live.get(0), ttl);
        } catch (RuntimeException e) {
            live.forEach(lock -> failed(lock, e));
            return;
        }
        for (HeldLock lock : live) {
            lock.renewingDone();
            if (renewed.contains(lease(lock))) {
                lock.leaseRenewed(sentAt);
                schedule(lock, interval(lock));
            } else {
                losses.lose(lock, DISOWNED, null);
            }
        }
    }

    private Set<Lease> single(HeldLock lock, long ttl) {
        return store.renew(lock.storeKey(), lock.owner(), ttl) ? Set.of(lease(lock)) : Set.of();
    }

    private void failed(HeldLock lock, RuntimeException e) {
        lock.renewingDone();
        long remainingMillis = TimeUnit.NANOSECONDS.toMillis(lock.leaseEndNanos() - System.nanoTime());
        if (remainingMillis <= 0) {
            losses.lose(lock, RENEWALS_FAILED, e);
            return;
        }
        if (lock.renewalFailure() == null) {
            BatonLog.renewalFailed(lock.key(), e);
        }
        lock.renewalFailed(e);
        long retry = Math.min(RETRY_MAX_MILLIS, Math.max(1, lock.ttlMillis() / 10));
        // Check again at the latest right after the lease would end.
        schedule(lock, Math.min(retry, remainingMillis + 1));
    }

    private static List<Lease> leases(List<HeldLock> locks) {
        List<Lease> leases = new ArrayList<>(locks.size());
        locks.forEach(lock -> leases.add(lease(lock)));
        return leases;
    }

    private static Lease lease(HeldLock lock) {
        return new Lease(lock.storeKey(), lock.owner());
    }

    /** Checks the lease at its end by the local clock, whatever the renewal call in flight is doing. */
    private void watchLease(HeldLock lock) {
        long delayNanos = Math.max(0, lock.leaseEndNanos() - System.nanoTime()) + TimeUnit.MILLISECONDS.toNanos(1);
        try {
            lock.watchdog(scheduler.schedule(() -> leaseEndReached(lock), delayNanos, TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException e) {
            // Shutting down: isHeld() still turns false at the lease's end, by the clock.
        }
    }

    private void leaseEndReached(HeldLock lock) {
        if (!lock.stillHeldState()) {
            return;
        }
        if (System.nanoTime() - lock.leaseEndNanos() < 0) {
            watchLease(lock); // renewed in the meantime: watch the new end
            return;
        }
        Throwable failure = lock.renewalFailure();
        losses.lose(lock, failure != null ? RENEWALS_FAILED
                : "its lease ran out before a renewal came back (the store is slow or unreachable)", failure);
    }
}
