package dev.baton.impl.engine;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.time.EngineTime;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps one engine's held locks renewed, and reports a lock lost when its lease is over.
 *
 * <p>The scheduler only keeps time; store calls run on their own executor, so a store call that hangs
 * holds up neither the clock nor the other locks' renewals. At most {@code renew-threads} renewal calls of
 * one engine are in flight at once (its locks wait their turn beyond that): a store that cannot batch, or
 * hangs, occupies a bounded number of threads. Each lock has at most one renewal in flight.
 * A lease counts from when the call that set it was sent, and so does the renewal interval: a renewal
 * falls due an interval after the previous one was sent, however long that one took to come back
 * (at once, if it took longer than an interval). Each renewal may take what is left of the lease
 * (the store bounds its call by it).
 *
 * <p>A failing renewal is retried until the lease is over by the local monotonic clock; then, or at once
 * when the store answers that the owner no longer holds the key, the lock is lost. A lease check on the
 * engine's timers ({@link LockTimers}: one structure and one wake-up for all held locks) reports the loss
 * at the lease's end even while a renewal call is still under way. The
 * reason says what happened: renewals failed; a renewal was sent and has not come back (a slow or
 * unreachable store); or none could be sent in time because this process was not running (a long GC
 * pause, SIGSTOP, a suspended VM: the timers ran late) or its renewal threads were starved.
 *
 * <p>With a store that renews in batches ({@code BATCH_RENEW}), a renewal that falls due takes along
 * every other lock of the same ttl due within half a renewal interval: one round trip for many locks,
 * each renewed at most half an interval early.
 *
 * <p>At shutdown a lock revoked from its holder whose work still runs stays renewed (it is still this
 * process's in the store) until it is released or abandoned.
 */
final class Renewals {

    /** What the engine does with a lock that is lost. */
    @FunctionalInterface
    interface Losses {
        void lose(HeldLock lock, LossKind kind, String reason, Throwable cause);
    }

    /** Why a lease is over, for the holder and for counting. */
    private record Ended(LossKind kind, String reason) {}

    private static final long RETRY_MAX_MILLIS = 1_000;
    private static final String RENEWALS_FAILED = "renewing failed until its lease was over";
    private static final String DISOWNED =
            "the store says this owner no longer holds it (its lease expired, or another owner took it)";
    /** A timer that ran at least this late (or a quarter of the lease, if more) was held up: the process was not running. */
    private static final long PAUSE_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final LockStore store;
    private final ManagerSettings settings;
    private final EngineTime time;
    private final LimitedExecutor storeCalls;
    private final boolean batches;
    private final Iterable<HeldLock> held;
    private final Losses losses;
    private final EngineMetrics metrics;
    /** Every held lock's next renewal and lease check, in one structure with one wake-up. */
    private final LockTimers timers;

    /**
     * @param held a live view of the engine's held locks (read to form batches)
     */
    Renewals(
            LockStore store,
            ManagerSettings settings,
            EngineTime time,
            Executor storeCalls,
            boolean batches,
            Iterable<HeldLock> held,
            Losses losses,
            EngineMetrics metrics) {
        this.metrics = metrics;
        this.store = store;
        this.settings = settings;
        this.time = time;
        this.storeCalls = new LimitedExecutor(storeCalls, settings.renewThreads());
        this.batches = batches;
        this.held = held;
        this.losses = losses;
        this.timers = new LockTimers(time, new LockTimers.Handler() {
            @Override
            public void renewalDue(HeldLock lock) {
                due(lock);
            }

            @Override
            public void leaseEndDue(HeldLock lock, long dueAtNanos) {
                leaseEndReached(lock, dueAtNanos);
            }
        });
    }

    /** Starts renewing a lock just acquired, and watching its lease. */
    void start(HeldLock lock) {
        long now = time.nanoTime();
        long renewAt = now + Math.max(0, lock.leaseStartNanos() + intervalNanos(lock) - now);
        lock.renewal().dueAt(renewAt);
        timers.plan(lock.renewal(), renewAt, leaseCheckAt(lock, now));
    }

    private long intervalNanos(HeldLock lock) {
        return TimeUnit.MILLISECONDS.toNanos(settings.renewIntervalMillis(lock.ttlMillis()));
    }

    /** Plans the lock's next renewal for {@code dueAtNanos}, or now if that has passed. */
    private void scheduleAt(HeldLock lock, long dueAtNanos) {
        long now = time.nanoTime();
        long delay = Math.max(0, dueAtNanos - now);
        // What the renewal's lateness is measured against: when it could run at the earliest.
        lock.renewal().dueAt(now + delay);
        timers.renewAt(lock.renewal(), now + delay);
    }

    /** @return how many renewal calls wait for a thread (the manager's {@code renew-threads} are busy) */
    int callsWaiting() {
        return storeCalls.waiting();
    }

    /** At engine shutdown, once no lock is renewed any more: cancels the wake-up left planned, if any. */
    void closed() {
        timers.cancelWake();
    }

    /** @return the timers of all held locks of the engine */
    LockTimers timers() {
        return timers;
    }

    /** @return how many held locks have a timer planned (for tests and vitals) */
    int timed() {
        return timers.planned();
    }

    /** On the scheduler: hands the store call to the store-call executor, so the clock never waits for a store. */
    private void due(HeldLock lock) {
        if (!lock.renewable() || !lock.renewal().start()) {
            return; // released, lost, or already taken along by another lock's batch
        }
        List<HeldLock> batch = batches ? batchWith(lock) : List.of(lock);
        try {
            storeCalls.execute(() -> renew(batch));
        } catch (RejectedExecutionException e) {
            // Shutting down (application stop): the lease runs out by itself; the watchdog reports it.
            batch.forEach(l -> l.renewal().done());
            BatonLog.renewalFailed(lock.logKeys(), lock.key(), e);
        }
    }

    /** The lock whose renewal is due, and the others of the same ttl due within half an interval. */
    private List<HeldLock> batchWith(HeldLock first) {
        List<HeldLock> batch = new ArrayList<>();
        batch.add(first);
        long horizon = time.nanoTime() + intervalNanos(first) / 2;
        for (HeldLock other : held) {
            if (other != first
                    && other.ttlMillis() == first.ttlMillis()
                    && other.renewable()
                    && other.renewal().dueAt() - horizon <= 0
                    && other.renewal().start()) {
                if (other.ttlMillis() != first.ttlMillis()) {
                    other.renewal()
                            .done(); // extended to another ttl just before its slot was taken: renewed on its own
                    continue;
                }
                timers.cancelRenewal(other.renewal());
                batch.add(other);
            }
        }
        return batch;
    }

    private void renew(List<HeldLock> batch) {
        long sentAt = time.nanoTime();
        List<HeldLock> live = new ArrayList<>(batch.size());
        long boundNanos = Long.MAX_VALUE;
        for (HeldLock lock : batch) {
            if (!lock.renewable()) {
                lock.renewal().done();
            } else if (sentAt - lock.leaseEndNanos() >= 0) {
                lock.renewal().done();
                lose(lock, ended(lock, sentAt, sentAt - lock.renewal().dueAt()));
            } else {
                live.add(lock);
                boundNanos = Math.min(boundNanos, lock.leaseEndNanos() - sentAt);
            }
        }
        if (live.isEmpty()) {
            return;
        }
        long ttl = live.get(0).ttlMillis();
        // What is left of the (shortest) lease: a renewal that comes back later is of no use.
        long bound = Math.max(1, TimeUnit.NANOSECONDS.toMillis(boundNanos));
        live.forEach(lock -> lock.renewal().sent(sentAt));
        Set<Lease> renewed;
        try {
            // without batches a renewal is the one lock it fell due for
            renewed = batches ? store.renewAll(leases(live), ttl, bound) : single(live.get(0), ttl, bound);
        } catch (RuntimeException e) {
            metrics.renewals(0, live.size());
            live.forEach(lock -> failed(lock, e));
            return;
        }
        metrics.renewals(renewed.size(), 0);
        for (HeldLock lock : live) {
            lock.renewal().done();
            if (!renewed.contains(lease(lock))) {
                losses.lose(lock, LossKind.DISOWNED, DISOWNED, null);
            } else if (lock.renewable()) {
                renewed(lock, sentAt);
                scheduleAt(lock, sentAt + intervalNanos(lock));
            }
        }
    }

    /**
     * Sets a held lock's lease to {@code ttlMillis} from now and renews it by that from then on ({@code
     * Lock.extend}), on the caller's thread. A renewal in flight carries the old ttl and could reach the
     * store after this call, cutting the lease back: the renewal slot is taken first, waiting at most
     * until the lease ends.
     *
     * @return true if extended; false if the store says this owner no longer holds the key (the lock is lost)
     * @throws RuntimeException what the store threw; the lock keeps its lease, and a renewal is due at once
     */
    boolean extend(HeldLock lock, long ttlMillis) {
        while (!lock.renewal().start()) {
            if (!lock.renewable() || time.nanoTime() - lock.leaseEndNanos() >= 0) {
                lock.checkHeld();
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        timers.cancelRenewal(lock.renewal());
        long sentAt = time.nanoTime();
        long bound = TimeUnit.NANOSECONDS.toMillis(lock.leaseEndNanos() - sentAt);
        if (!lock.renewable() || bound <= 0) {
            lock.renewal().done();
            scheduleAt(lock, sentAt); // the regular path reports the loss, with its reason
            lock.checkHeld();
            return false;
        }
        lock.renewal().sent(sentAt);
        boolean renewed;
        try {
            renewed = store.renew(new Renewal(lock.storeKey(), lock.owner(), ttlMillis, bound));
        } catch (RuntimeException e) {
            lock.renewal().done();
            scheduleAt(lock, sentAt); // the old lease still runs: renew it as usual, now
            throw e;
        }
        if (!renewed) {
            lock.renewal().done();
            losses.lose(lock, LossKind.DISOWNED, DISOWNED, null);
            return false;
        }
        // The new ttl before the slot is given back: another lock's batch takes along only locks of its own ttl.
        lock.ttlMillis(ttlMillis);
        renewed(lock, sentAt);
        lock.renewal().done();
        if (lock.renewable()) {
            scheduleAt(lock, sentAt + intervalNanos(lock));
        }
        return true;
    }

    private static void renewed(HeldLock lock, long sentAt) {
        lock.leaseRenewed(sentAt);
        lock.renewal().succeeded();
    }

    private Set<Lease> single(HeldLock lock, long ttl, long bound) {
        return store.renew(new Renewal(lock.storeKey(), lock.owner(), ttl, bound)) ? Set.of(lease(lock)) : Set.of();
    }

    private void failed(HeldLock lock, RuntimeException e) {
        lock.renewal().done();
        long now = time.nanoTime();
        long remainingNanos = lock.leaseEndNanos() - now;
        if (remainingNanos <= 0) {
            losses.lose(lock, LossKind.RENEWALS_FAILED, RENEWALS_FAILED, e);
            return;
        }
        if (lock.renewal().failure() == null) {
            BatonLog.renewalFailed(lock.logKeys(), lock.key(), e);
        }
        lock.renewal().failed(e);
        long retry = TimeUnit.MILLISECONDS.toNanos(Math.min(RETRY_MAX_MILLIS, Math.max(1, lock.ttlMillis() / 10)));
        // Check again at the latest right after the lease would end.
        scheduleAt(lock, now + Math.min(retry, remainingNanos + TimeUnit.MILLISECONDS.toNanos(1)));
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
        timers.watchAt(lock.renewal(), leaseCheckAt(lock, time.nanoTime()));
    }

    /** When to check the lease: 1 ms after its end (now, if that has passed). */
    private static long leaseCheckAt(HeldLock lock, long now) {
        return now + Math.max(0, lock.leaseEndNanos() - now) + TimeUnit.MILLISECONDS.toNanos(1);
    }

    private void leaseEndReached(HeldLock lock, long dueAt) {
        if (!lock.stillHeldState()) {
            return; // released, lost, or revoked at shutdown (its holder was told already)
        }
        long now = time.nanoTime();
        if (now - lock.leaseEndNanos() < 0) {
            watchLease(lock); // renewed in the meantime: watch the new end
            return;
        }
        lose(lock, ended(lock, now, now - dueAt));
    }

    private void lose(HeldLock lock, Ended ended) {
        losses.lose(lock, ended.kind(), ended.reason(), lock.renewal().failure());
    }

    /**
     * Why the lease of {@code lock} is over at {@code now}, found by a timer that ran {@code lateNanos}
     * later than planned.
     */
    private static Ended ended(HeldLock lock, long now, long lateNanos) {
        long pauseNanos = Math.max(PAUSE_MIN_NANOS, TimeUnit.MILLISECONDS.toNanos(lock.ttlMillis()) / 4);
        if (lateNanos >= pauseNanos) {
            return new Ended(
                    LossKind.PROCESS_PAUSED,
                    "its lease ended while this process was not running: its renewal timer ran "
                            + TimeUnit.NANOSECONDS.toMillis(lateNanos)
                            + " ms late (a long GC pause, a stopped (SIGSTOP) or"
                            + " suspended process or VM, or starved renewal threads), so no renewal could be sent in time");
        }
        if (lock.renewal().failure() != null) {
            return new Ended(LossKind.RENEWALS_FAILED, RENEWALS_FAILED);
        }
        if (lock.renewal().inFlight()) {
            return new Ended(
                    LossKind.STORE_TOO_SLOW,
                    "its lease ran out before a renewal came back (sent "
                            + TimeUnit.NANOSECONDS.toMillis(now - lock.renewal().sentAt())
                            + " ms earlier: the store is slow or unreachable)");
        }
        return new Ended(
                LossKind.RENEWAL_NOT_SENT,
                "its lease ended before a renewal could be sent: the renewal due "
                        + TimeUnit.NANOSECONDS.toMillis(
                                Math.max(0, now - lock.renewal().dueAt()))
                        + " ms earlier had not run (this process was not running, or its renewal threads were starved)");
    }
}
