package dev.baton.impl.engine;

import dev.baton.LockAlreadyHeldException;
import dev.baton.LockException;
import dev.baton.LockInterruptedException;
import dev.baton.LockTimeoutException;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The acquisition paths of one {@link LockEngine}: a caller that may wait ({@link #acquireOrNull}) and a
 * scheduled firing that tries once ({@link #tryOnce}), each counted in the metrics. Both pass through the
 * key's gate the same way ({@link GatePass}: the local queue, the shutdown check, the gate given back unless
 * a lock is handed out) and take what the store acquired the same way ({@link GatePass#take}: an answer that
 * came back after a whole ttl is given back to the store).
 */
final class Acquisitions {

    final LockEngine engine;
    final LockStore store;
    final EngineTime time;
    final KeyGates gates;
    final Polling polling;
    /** Whether the store keeps waiting turns. */
    final boolean turns;
    /** Where a waiter's turn is given up: off the caller's thread. */
    final Executor storeCalls;

    final EngineMetrics metrics;

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
            String key,
            long ttlMillis,
            long timeoutMillis,
            boolean await,
            PollPolicy poll,
            int sharedLimit,
            Refusal refusal) {
        long started = time.nanoTime();
        HeldLock lock;
        try {
            lock = acquireUnmetered(key, ttlMillis, timeoutMillis, await, poll, sharedLimit, refusal);
        } catch (LockException e) {
            metrics.acquisition(EngineMetrics.Outcome.FAILED, time.nanoTime() - started);
            throw e;
        }
        metrics.acquisition(
                lock == null ? EngineMetrics.Outcome.TIMED_OUT : EngineMetrics.Outcome.ACQUIRED,
                time.nanoTime() - started);
        if (lock != null) {
            metrics.acquiredOnThisThread(key, engine.logKeys(), lock.fencingToken());
        }
        return lock;
    }

    private HeldLock acquireUnmetered(
            String key,
            long ttlMillis,
            long timeoutMillis,
            boolean await,
            PollPolicy poll,
            int sharedLimit,
            Refusal refusal) {
        String storeKey = checkedStoreKey(key, ttlMillis, poll, sharedLimit);
        long startedAt = time.nanoTime();
        long deadline = startedAt + TimeUnit.MILLISECONDS.toNanos(await ? timeoutMillis : 0);
        // Shared leases hold the key together, so they do not queue for it in this JVM: the store admits them.
        GatePass pass = new GatePass(engine, gates, key, storeKey, sharedLimit != Acquisition.EXCLUSIVE);
        try {
            HeldLock mine = pass.gate.heldBy(Thread.currentThread());
            if (mine != null) {
                throw alreadyHeld(key, mine, pass.beside);
            }
            boolean entered = await && !pass.beside && engine.handsOver()
                    ? pass.tryEnterOrTakeOver(deadline - time.nanoTime(), ttlMillis)
                    : pass.tryEnter(await ? deadline - time.nanoTime() : 0);
            if (!entered) {
                // another thread of this JVM kept it: its lease is known here
                long now = time.nanoTime();
                OptionalLong local = pass.localLease(now);
                if (local.isPresent()) {
                    refusal.told(local, now);
                }
                return null;
            }
            HeldLock handedOver = pass.takeHandedOver(Thread.currentThread());
            if (handedOver != null) {
                return pass.handOut(handedOver);
            }
            return pass.handOut(contend(pass, ttlMillis, await, poll, startedAt, deadline, sharedLimit, refusal));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(key, e);
        } finally {
            pass.end();
        }
    }

    /**
     * Starts an acquisition that waits without a thread ({@link AsyncAcquisition}); bad arguments and a shut-down
     * engine fail at once, the rest completes the future.
     */
    CompletableFuture<HeldLock> acquireAsync(
            String key, long ttlMillis, long timeoutMillis, boolean await, PollPolicy poll, int sharedLimit) {
        String storeKey = checkedStoreKey(key, ttlMillis, poll, sharedLimit);
        AsyncAcquisition acquisition = new AsyncAcquisition(
                this,
                new GatePass(engine, gates, key, storeKey, true),
                ttlMillis,
                timeoutMillis,
                await,
                poll,
                sharedLimit);
        acquisition.start();
        return acquisition.future;
    }

    /** Counts the outcome of an {@link AsyncAcquisition}: a cancelled one was not acquired, as a timed-out one. */
    void asyncEnded(HeldLock lock, long startedAt, Throwable failure) {
        long waited = time.nanoTime() - startedAt;
        if (lock != null) {
            metrics.acquisition(EngineMetrics.Outcome.ACQUIRED, waited);
        } else if (failure instanceof LockException && !(failure instanceof LockTimeoutException)) {
            metrics.acquisition(EngineMetrics.Outcome.FAILED, waited);
        } else {
            metrics.acquisition(EngineMetrics.Outcome.TIMED_OUT, waited);
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
            metrics.acquiredOnThisThread(key, engine.logKeys(), attempt.lock().fencingToken());
        }
        return attempt;
    }

    private Attempt tryOnceUnmetered(String key, long ttlMillis) {
        String storeKey = engine.storeKey(key);
        LockArguments.requireValidTtl(ttlMillis);
        GatePass pass = new GatePass(engine, gates, key, storeKey, false);
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
            HeldLock lock = pass.take(owner, result, ttlMillis, sentAt, time.nanoTime(), Thread.currentThread());
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
     *
     * <p>Its first ask goes without the turn ({@link #turnOfAsk}); refused, it asks again at once with it.
     */
    private HeldLock contend(
            GatePass pass,
            long ttlMillis,
            boolean await,
            PollPolicy poll,
            long startedAt,
            long deadline,
            int sharedLimit,
            Refusal refusal)
            throws InterruptedException {
        Thread thread = Thread.currentThread();
        pass.startWaiting(() -> LockSupport.unpark(thread));
        String waiter = turns && await ? OwnerTokens.next() : null;
        boolean inTurn = false;
        int chased = 0; // answers in a row that found the key free but kept for another's turn
        HeldLock lock = null;
        try {
            for (int attempt = 0; ; attempt++) {
                if (engine.isClosed()) {
                    throw engine.shutDown(pass.key);
                }
                String owner = OwnerTokens.next();
                long sentAt = time.nanoTime();
                // The store waits for someone else's lock no longer than the caller may: not at all for a try.
                long bound = await ? Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - sentAt)) : 0;
                AcquireResult result =
                        ask(pass, owner, ttlMillis, bound, waiter, attempt, sentAt - startedAt, sharedLimit);
                long answeredAt = time.nanoTime();
                inTurn = result.isNextInTurn();
                refusal.told(result.remainingLeaseMillis(), answeredAt);
                if (result.isAcquired()) {
                    lock = pass.take(owner, result, ttlMillis, sentAt, answeredAt, thread);
                    if (lock != null) {
                        return lock;
                    }
                }
                long remaining = deadline - time.nanoTime();
                if (!await || remaining <= 0) {
                    return null;
                }
                if (result.isAcquired() || turnStillToAsk(attempt, waiter)) {
                    continue; // the store is slow, not the key busy; or the first refusal: in line at once
                }
                // Only a caller that waits subscribes, after its first refusal (the store knows its backend by then):
                // a try never waits for it. A release between that refusal and the subscription would not be told,
                // so subscribing wakes every contender, this one too, to ask once more at once.
                engine.subscribeOnce();
                time.park(
                        pass.gate,
                        Math.min(remaining, polling.pauseNanos(poll, pausesBefore(attempt, waiter), result, chased)));
                chased = polling.keptForAnother(result) ? chased + 1 : 0;
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } finally {
            pass.stopWaiting();
            if (lock == null && inTurn) {
                leaveTurn(pass.key, pass.storeKey, waiter);
            }
        }
    }

    /**
     * The turn an ask carries: none on the first ask of an acquisition. A free key needs no turn, an ask without one
     * never takes a key kept for another waiter's turn (the store contract), and on every store that keeps turns the
     * statement that claims one costs more than a plain acquisition, so an uncontended acquisition that may wait
     * would pay for a turn it never needs. Refused, the acquisition asks again at once with its turn
     * ({@link #turnStillToAsk}): it is in line one round trip later, its age counted from the call as before.
     */
    private static String turnOfAsk(int attempt, String waiter) {
        return attempt == 0 ? null : waiter;
    }

    /** @return whether ask {@code attempt} went without the acquisition's turn, so the next goes at once with it */
    static boolean turnStillToAsk(int attempt, String waiter) {
        return waiter != null && attempt == 0;
    }

    /** @return the pauses before the ask after {@code attempt}, for the backoff: the turnless first ask moved none */
    static int pausesBefore(int attempt, String waiter) {
        return waiter != null ? attempt - 1 : attempt;
    }

    /** Checks a request's arguments and the store's support for its sharing; returns the key in the store. */
    private String checkedStoreKey(String key, long ttlMillis, PollPolicy poll, int sharedLimit) {
        String storeKey = engine.storeKey(key);
        LockArguments.requireValidTtl(ttlMillis);
        Objects.requireNonNull(poll, "poll");
        engine.checkSharing(key, sharedLimit);
        return storeKey;
    }

    /**
     * One ask of the store by a waiting acquisition, synchronous or not: with its turn where it waits one.
     *
     * @param bound how long the store may wait for someone else's lock
     * @param waiter the waiter's turn id, or null for a caller that does not wait its turn
     * @param attempt the ask's number in its acquisition, from 0 (the first carries no turn: {@link #turnOfAsk})
     * @param waitedNanos how long the caller has waited so far
     * @throws LockException the store's failure, as the API documents it
     */
    AcquireResult ask(
            GatePass pass,
            String owner,
            long ttlMillis,
            long bound,
            String waiter,
            int attempt,
            long waitedNanos,
            int sharedLimit) {
        try {
            String turnOfAsk = turnOfAsk(attempt, waiter);
            Turn turn = turnOfAsk == null
                    ? null
                    : new Turn(turnOfAsk, TimeUnit.NANOSECONDS.toMillis(waitedNanos), Polling.TURN_KEEP_MILLIS);
            return store.acquire(new Acquisition(pass.storeKey, owner, ttlMillis, bound, turn, sharedLimit));
        } catch (RuntimeException e) {
            throw LockEngine.storeFailure("acquiring", pass.key, e);
        }
    }

    /**
     * @return the refusal of a request for a key the calling thread holds: locks are not reentrant, and a shared
     *     lock (a read lock, a permit) is not upgraded to an exclusive one
     */
    private static LockAlreadyHeldException alreadyHeld(String key, HeldLock mine, boolean sharedRequest) {
        if (mine.beside() && !sharedRequest) {
            return new LockAlreadyHeldException(
                    key,
                    "is held by this thread as a shared lock (a read lock or a permit), which is not upgraded to an"
                            + " exclusive one: release it first, then acquire the exclusive (write) lock");
        }
        return new LockAlreadyHeldException(key);
    }

    /** Gives up a turn this waiter no longer needs, off the caller's thread: it expires by itself anyway. */
    void leaveTurn(String key, String storeKey, String waiter) {
        try {
            storeCalls.execute(() -> {
                try {
                    store.leaveTurn(storeKey, waiter);
                } catch (RuntimeException e) {
                    BatonLog.leaveTurnFailed(engine.logKeys(), key, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // the pool is shutting down with the application: the turn expires by itself
        }
    }
}
