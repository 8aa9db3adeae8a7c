package dev.baton.impl.engine;

import dev.baton.LockAlreadyHeldException;
import dev.baton.LockException;
import dev.baton.LockInterruptedException;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.time.EngineTime;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Turn;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The acquisition paths of one {@link LockEngine}: a caller that may wait ({@link #acquireOrNull}) and a
 * scheduled firing that tries once ({@link #tryOnce}), each counted in the metrics. Both pass through the
 * key's gate the same way ({@link GatePass}: the local queue, the shutdown check, the gate given back unless
 * a lock is handed out) and take what the store acquired the same way ({@link GatePass#take}: an answer that
 * came back after a whole ttl is given back to the store).
 */
final class Acquisitions {

    private final LockEngine engine;
    private final LockStore store;
    private final EngineTime time;
    private final KeyGates gates;
    private final Polling polling;
    /** Whether the store keeps waiting turns. */
    private final boolean turns;
    /** Where a waiter's turn is given up: off the caller's thread. */
    private final Executor storeCalls;

    private final EngineMetrics metrics;

    Acquisitions(
            LockEngine engine,
            LockStore store,
            EngineTime time,
            KeyGates gates,
            Polling polling,
            boolean turns,
            Executor storeCalls,
            EngineMetrics metrics) {
        this.engine = engine;
        this.store = store;
        this.time = time;
        this.gates = gates;
        this.polling = polling;
        this.turns = turns;
        this.storeCalls = storeCalls;
        this.metrics = metrics;
    }

    /** {@link #acquireUnmetered}, its outcome and wait counted; bad arguments are not an acquisition. */
    HeldLock acquireOrNull(
            String key, long ttlMillis, long timeoutMillis, boolean await, PollPolicy poll, Refusal refusal) {
        long started = time.nanoTime();
        HeldLock lock;
        try {
            lock = acquireUnmetered(key, ttlMillis, timeoutMillis, await, poll, refusal);
        } catch (LockException e) {
            metrics.acquisition(EngineMetrics.Outcome.FAILED, time.nanoTime() - started);
            throw e;
        }
        metrics.acquisition(
                lock == null ? EngineMetrics.Outcome.TIMED_OUT : EngineMetrics.Outcome.ACQUIRED,
                time.nanoTime() - started);
        if (lock != null) {
            metrics.acquiredOnThisThread(key, lock.fencingToken());
        }
        return lock;
    }

    private HeldLock acquireUnmetered(
            String key, long ttlMillis, long timeoutMillis, boolean await, PollPolicy poll, Refusal refusal) {
        String storeKey = engine.storeKey(key);
        LockArguments.requireValidTtl(ttlMillis);
        Objects.requireNonNull(poll, "poll");
        long startedAt = time.nanoTime();
        long deadline = startedAt + TimeUnit.MILLISECONDS.toNanos(await ? timeoutMillis : 0);
        GatePass pass = new GatePass(key, storeKey);
        try {
            HeldLock holder = pass.gate.holder();
            if (holder != null && holder.boundThread() == Thread.currentThread()) {
                throw new LockAlreadyHeldException(key);
            }
            if (!pass.tryEnter(await ? deadline - time.nanoTime() : 0)) {
                // another thread of this JVM kept it: its lease is known here
                long now = time.nanoTime();
                OptionalLong local = pass.localLease(now);
                if (local.isPresent()) {
                    refusal.told(local, now);
                }
                return null;
            }
            return pass.handOut(contend(pass, ttlMillis, await, poll, startedAt, deadline, refusal));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(key, e);
        } finally {
            pass.end();
        }
    }

    /** {@link #tryOnceUnmetered}, its outcome and wait counted; bad arguments are not an acquisition. */
    Attempt tryOnce(String key, long ttlMillis) {
        long started = time.nanoTime();
        Attempt attempt;
        try {
            attempt = tryOnceUnmetered(key, ttlMillis);
        } catch (LockException e) {
            metrics.acquisition(EngineMetrics.Outcome.FAILED, time.nanoTime() - started);
            throw e;
        }
        metrics.acquisition(
                attempt.lock() != null ? EngineMetrics.Outcome.ACQUIRED : EngineMetrics.Outcome.TIMED_OUT,
                time.nanoTime() - started);
        if (attempt.lock() != null) {
            metrics.acquiredOnThisThread(key, attempt.lock().fencingToken());
        }
        return attempt;
    }

    private Attempt tryOnceUnmetered(String key, long ttlMillis) {
        String storeKey = engine.storeKey(key);
        LockArguments.requireValidTtl(ttlMillis);
        GatePass pass = new GatePass(key, storeKey);
        try {
            if (!pass.tryEnter(0)) {
                return Attempt.notAcquired(pass.localLease(time.nanoTime()));
            }
            String owner = OwnerTokens.next();
            long sentAt = time.nanoTime();
            AcquireResult result;
            try {
                result = store.acquire(Acquisition.of(storeKey, owner, ttlMillis, 0));
            } catch (RuntimeException e) {
                throw LockEngine.storeFailure("acquiring", key, e);
            }
            if (!result.isAcquired()) {
                return Attempt.notAcquired(result.remainingLeaseMillis());
            }
            HeldLock lock = pass.take(owner, result, ttlMillis, sentAt, time.nanoTime());
            return lock == null ? Attempt.notAcquired(OptionalLong.empty()) : Attempt.acquired(pass.handOut(lock));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // not thrown by a try without waiting
            throw new LockInterruptedException(key, e);
        } finally {
            pass.end();
        }
    }

    /**
     * Asks the store until the key is taken or the deadline passes. Where the store keeps turns, a
     * waiting contender asks with its turn ({@code waiter}, how long its caller has waited, counted from
     * the call, so time in this JVM's own queue counts too) and gives the turn up if it stops waiting.
     */
    private HeldLock contend(
            GatePass pass,
            long ttlMillis,
            boolean await,
            PollPolicy poll,
            long startedAt,
            long deadline,
            Refusal refusal)
            throws InterruptedException {
        pass.gate.contending(Thread.currentThread());
        String waiter = turns && await ? OwnerTokens.next() : null;
        boolean inTurn = false;
        int chased = 0; // answers in a row that found the key free but kept for another's turn
        HeldLock lock = null;
        try {
            for (int attempt = 0; ; attempt++) {
                if (engine.isClosed()) {
                    throw shutDown(pass.key);
                }
                String owner = OwnerTokens.next();
                long sentAt = time.nanoTime();
                // The store waits for someone else's lock no longer than the caller may: not at all for a try.
                long bound = await ? Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - sentAt)) : 0;
                AcquireResult result;
                try {
                    Turn turn = waiter == null
                            ? null
                            : new Turn(
                                    waiter,
                                    TimeUnit.NANOSECONDS.toMillis(sentAt - startedAt),
                                    Polling.TURN_KEEP_MILLIS);
                    result = store.acquire(new Acquisition(pass.storeKey, owner, ttlMillis, bound, turn));
                } catch (RuntimeException e) {
                    throw LockEngine.storeFailure("acquiring", pass.key, e);
                }
                long answeredAt = time.nanoTime();
                inTurn = result.isNextInTurn();
                refusal.told(result.remainingLeaseMillis(), answeredAt);
                if (result.isAcquired()) {
                    lock = pass.take(owner, result, ttlMillis, sentAt, answeredAt);
                    if (lock != null) {
                        return lock;
                    }
                }
                long remaining = deadline - time.nanoTime();
                if (!await || remaining <= 0) {
                    return null;
                }
                if (result.isAcquired()) {
                    continue; // the store is slow, not the key busy: try again at once
                }
                // Only a caller that waits subscribes, after its first refusal (the store knows its backend by then):
                // a try never waits for it. A release between that refusal and the subscription would not be told,
                // so subscribing wakes every contender, this one too, to ask once more at once.
                engine.subscribeOnce();
                time.park(pass.gate, Math.min(remaining, polling.pauseNanos(poll, attempt, result, chased)));
                chased = polling.keptForAnother(result) ? chased + 1 : 0;
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } finally {
            pass.gate.contending(null);
            if (lock == null && inTurn) {
                leaveTurn(pass.key, pass.storeKey, waiter);
            }
        }
    }

    /** Gives up a turn this waiter no longer needs, off the caller's thread: it expires by itself anyway. */
    private void leaveTurn(String key, String storeKey, String waiter) {
        try {
            storeCalls.execute(() -> {
                try {
                    store.leaveTurn(storeKey, waiter);
                } catch (RuntimeException e) {
                    BatonLog.leaveTurnFailed(key, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // the pool is shutting down with the application: the turn expires by itself
        }
    }

    private LockException shutDown(String key) {
        return new LockException("Cannot acquire '" + key + "': " + BatonLog.manager(engine.name()) + " is shut down");
    }

    /**
     * One acquisition's passage through its key's gate, from joining the key's local queue to leaving it:
     * the gate is given back at the end ({@link #end}) unless a lock was taken, which keeps it until it is
     * released ({@link LockEngine#forget}).
     */
    private final class GatePass {
        final String key;
        final String storeKey;
        final KeyGate gate;
        /** Whether this acquisition got to the front of the local queue. */
        private boolean entered;
        /** The lock taken, if any. */
        private HeldLock lock;

        /** Joins the key's gate, unless the engine is shut down. */
        GatePass(String key, String storeKey) {
            if (engine.isClosed()) {
                throw shutDown(key);
            }
            this.key = key;
            this.storeKey = storeKey;
            this.gate = gates.enter(storeKey);
        }

        /** @return whether this acquisition got to the front of the local queue within {@code timeoutNanos} */
        boolean tryEnter(long timeoutNanos) throws InterruptedException {
            entered = gate.tryEnter(time, timeoutNanos);
            return entered;
        }

        /** @return the remaining lease of the key's holder in this JVM at {@code now}, when there is one */
        OptionalLong localLease(long now) {
            HeldLock local = gate.holder();
            return local == null
                    ? OptionalLong.empty()
                    : OptionalLong.of(Math.max(0, TimeUnit.NANOSECONDS.toMillis(local.leaseEndNanos() - now)));
        }

        /**
         * Holds what the store acquired for {@code owner}, unless its answer came back after a whole ttl: the
         * lease counts from when the call was sent, so it is already over and another owner may hold the key by
         * now. Such an acquisition is given back and counts as not acquired ({@code BATON-010}).
         *
         * @return the lock held, or null when given back
         */
        HeldLock take(String owner, AcquireResult result, long ttlMillis, long sentAt, long answeredAt) {
            long took = answeredAt - sentAt;
            if (took >= TimeUnit.MILLISECONDS.toNanos(ttlMillis)) {
                BatonLog.acquiredTooLate(key, TimeUnit.NANOSECONDS.toMillis(took), ttlMillis);
                giveBack(owner);
                return null;
            }
            lock = engine.holding(new HeldLock(
                    engine,
                    gate,
                    key,
                    storeKey,
                    owner,
                    result.fencingToken(),
                    ttlMillis,
                    sentAt,
                    Thread.currentThread()));
            return lock;
        }

        /** Releases an acquisition that is not handed out, best-effort: it expires by itself anyway. */
        private void giveBack(String owner) {
            try {
                store.release(storeKey, owner);
            } catch (RuntimeException e) {
                BatonLog.releaseFailed(key, e);
            }
        }

        /**
         * @return {@code taken}, unless the engine was shut down meanwhile: {@code close()} may have listed the
         *     held locks before this one joined them, so nobody else would release it. Whoever releases it first
         *     (here or {@code close()}) also gives the gate back.
         */
        HeldLock handOut(HeldLock taken) {
            if (taken != null && engine.isClosed()) {
                taken.close();
                throw shutDown(key);
            }
            return taken;
        }

        /** Leaves the gate, unless a lock was taken: that keeps it until released. */
        void end() {
            if (lock == null) {
                if (entered) {
                    gate.leave();
                }
                gates.exit(storeKey, gate);
            }
        }
    }
}
