package dev.baton.impl.engine;

import dev.baton.LockTimeoutException;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.time.EngineTime;
import dev.baton.spi.AcquireResult;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One acquisition that waits without a thread: each ask of the store runs on the store-call pool, and between
 * two asks it waits on nothing but a timer of the engine's and the key's wake-ups (a release in this JVM, or one
 * the store notifies). It waits beside the key's local queue, as a shared lease does, so the lock it gets is bound
 * to no thread: any thread may release it.
 *
 * <p>Its future completes with the lock, with a {@link LockTimeoutException} at the deadline, with the store's
 * failure, or is cancelled by the caller. A lock granted after the future was completed otherwise (cancelled, timed
 * out) is released at once. The asks never overlap: {@link #state} lets one run at a time, and a wake-up during an
 * ask makes another ask follow it at once rather than run beside it. Everything that ends the wait (the gate
 * left, the turn given up, the timers cancelled) runs once, in {@link #finish}, from an ask, so never while an
 * ask that might still take the key is running.
 */
final class AsyncAcquisition {

    private static final int WAITING = 0;
    private static final int ASKING = 1;
    /** Asking, and woken meanwhile: ask again as soon as this ask ends. */
    private static final int ASK_AGAIN = 2;

    private static final int DONE = 3;

    private final Acquisitions acquisitions;
    private final LockEngine engine;
    private final EngineTime time;
    private final GatePass pass;
    private final long ttlMillis;
    private final long timeoutMillis;
    private final boolean await;
    private final PollPolicy poll;
    private final int sharedLimit;
    private final long startedAt;
    private final long deadline;
    /** Its claim on the key's turn across asks, on stores that keep turns; null for a try. */
    private final String waiter;

    private final Refusal refusal;
    final CompletableFuture<HeldLock> future = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(ASKING);
    private final Runnable wake = this::wake;
    // Written by the ask in progress (one at a time, handed over through the executor and `state`).
    private int attempt;
    private int chased;
    private boolean inTurn;
    private volatile EngineTime.Scheduled pause;
    private volatile EngineTime.Scheduled timeout;

    AsyncAcquisition(
            Acquisitions acquisitions,
            GatePass pass,
            long ttlMillis,
            long timeoutMillis,
            boolean await,
            PollPolicy poll,
            int sharedLimit) {
        this.acquisitions = acquisitions;
        this.engine = acquisitions.engine;
        this.time = acquisitions.time;
        this.pass = pass;
        this.ttlMillis = ttlMillis;
        this.timeoutMillis = await ? timeoutMillis : 0;
        this.await = await;
        this.poll = poll;
        this.sharedLimit = sharedLimit;
        this.startedAt = time.nanoTime();
        this.deadline = startedAt + TimeUnit.MILLISECONDS.toNanos(this.timeoutMillis);
        this.waiter = acquisitions.turns && await ? OwnerTokens.next() : null;
        this.refusal = new Refusal(time);
    }

    /** Starts the first ask; the future completes later, on Baton's threads. */
    void start() {
        pass.startWaiting(wake);
        // Cancelled or timed out by someone else: the next ask (at once, if none runs) sees it and finishes.
        future.whenComplete((lock, failure) -> wake());
        if (await) {
            timeout = time.schedule(this::timeOut, deadline - startedAt);
        }
        submitAsk();
    }

    private void submitAsk() {
        try {
            acquisitions.storeCalls.execute(this::ask);
        } catch (RejectedExecutionException e) {
            // the pool stops with the application: so does this wait
            future.completeExceptionally(engine.shutDown(pass.key));
            finish();
        }
    }

    /** A wake-up (release, notification, pause over, future completed): ask now, or right after the ask running. */
    private void wake() {
        while (true) {
            int s = state.get();
            if (s == WAITING) {
                if (state.compareAndSet(WAITING, ASKING)) {
                    EngineTime.Scheduled p = pause;
                    if (p != null) {
                        p.cancel();
                    }
                    submitAsk();
                    return;
                }
            } else if (s == ASKING) {
                if (state.compareAndSet(ASKING, ASK_AGAIN)) {
                    return;
                }
            } else {
                return; // asked again already, or done
            }
        }
    }

    private void timeOut() {
        future.completeExceptionally(new LockTimeoutException(
                pass.key,
                Duration.ofMillis(timeoutMillis),
                Duration.ofNanos(time.nanoTime() - startedAt),
                refusal.remainingNow()));
    }

    /** One ask of the store, on the store-call pool. */
    private void ask() {
        if (future.isDone()) {
            finish();
            return;
        }
        if (engine.isClosed()) {
            future.completeExceptionally(engine.shutDown(pass.key));
            finish();
            return;
        }
        String owner = OwnerTokens.next();
        long sentAt = time.nanoTime();
        long bound = await ? Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - sentAt)) : 0;
        AcquireResult result;
        try {
            result = acquisitions.ask(pass, owner, ttlMillis, bound, waiter, attempt, sentAt - startedAt, sharedLimit);
        } catch (RuntimeException e) {
            future.completeExceptionally(e);
            finish();
            return;
        }
        long answeredAt = time.nanoTime();
        inTurn = result.isNextInTurn();
        refusal.told(result.remainingLeaseMillis(), answeredAt);
        if (result.isAcquired()) {
            HeldLock lock = pass.take(owner, result, ttlMillis, sentAt, answeredAt, null);
            if (lock != null) {
                granted(lock);
                return;
            }
        }
        long remaining = deadline - time.nanoTime();
        if (!await || remaining <= 0) {
            if (!await) {
                future.completeExceptionally(new LockTimeoutException(
                        pass.key, Duration.ZERO, Duration.ofNanos(answeredAt - startedAt), refusal.remainingNow()));
            } else {
                timeOut();
            }
            finish();
            return;
        }
        long pauseNanos;
        if (result.isAcquired() || Acquisitions.turnStillToAsk(attempt, waiter)) {
            pauseNanos = 0; // the store is slow, not the key busy; or the first refusal: in line at once
        } else {
            engine.subscribeOnce();
            pauseNanos = Math.min(
                    remaining,
                    acquisitions.polling.pauseNanos(poll, Acquisitions.pausesBefore(attempt, waiter), result, chased));
            chased = acquisitions.polling.keptForAnother(result) ? chased + 1 : 0;
        }
        attempt++;
        if (state.compareAndSet(ASKING, WAITING)) {
            // A wake-up between the CAS and this line asks already; this timer then only wakes a later wait early.
            pause = time.schedule(wake, pauseNanos);
        } else if (state.compareAndSet(ASK_AGAIN, ASKING)) {
            submitAsk();
        }
    }

    private void granted(HeldLock lock) {
        if (engine.isClosed()) {
            lock.close();
            future.completeExceptionally(engine.shutDown(pass.key));
        } else if (!future.complete(lock)) {
            lock.close(); // cancelled or timed out while the store granted it: given back at once
        }
        finish();
    }

    /** Ends the wait, once: the key's gate, the turn, the timers. Runs from an ask, so no ask is running. */
    private void finish() {
        if (state.getAndSet(DONE) == DONE) {
            return;
        }
        pass.stopWaiting();
        EngineTime.Scheduled t = timeout;
        if (t != null) {
            t.cancel();
        }
        EngineTime.Scheduled p = pause;
        if (p != null) {
            p.cancel();
        }
        HeldLock lock = future.isDone() && !future.isCompletedExceptionally() ? future.join() : null;
        if (lock == null && inTurn) {
            acquisitions.leaveTurn(pass.key, pass.storeKey, waiter);
        }
        pass.end();
        acquisitions.asyncEnded(lock, startedAt, failureOf(future));
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        if (!future.isCompletedExceptionally()) {
            return null;
        }
        try {
            future.join();
            return null;
        } catch (CancellationException e) {
            return e;
        } catch (RuntimeException e) {
            return e.getCause() == null ? e : e.getCause();
        }
    }
}
