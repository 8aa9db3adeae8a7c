package dev.baton.impl.engine;

import dev.baton.Lock;
import dev.baton.LockLostException;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock this JVM holds: its identity in the store, its local lease estimate and its state. State
 * changes are compare-and-sets, so release, loss and renewal may race from different threads.
 */
public final class HeldLock implements Lock {

    enum State { HELD, RELEASED, LOST }

    private final LockEngine engine;
    private final KeyGate gate;
    private final String key;
    private final String storeKey;
    private final String owner;
    private final long fencingToken;
    private final long ttlMillis;
    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
    private final CompletableFuture<LockLostException> lost = new CompletableFuture<>();
    /** The end of the lease by the local monotonic clock, counted from when the last successful call was sent. */
    private volatile long leaseEndNanos;
    /** The thread running the work under this lock, while it runs synchronously: for re-entry detection and interrupts. */
    private volatile Thread boundThread;
    /** Orders an interrupt on loss with the unbinding of the thread: never interrupt a thread that moved on. */
    private final ReentrantLock binding = new ReentrantLock();
    private volatile ScheduledFuture<?> renewal;
    private volatile ScheduledFuture<?> watchdog;
    /** When the next renewal is due, by the local monotonic clock: batches take along locks due soon. */
    private volatile long renewalDueAtNanos;
    /** A renewal call is in flight: at most one per lock. */
    private final AtomicBoolean renewing = new AtomicBoolean();
    private volatile LockLostException lossReason;
    /** The failure of the last renewal attempt, cleared by a successful one: the cause of a later loss. */
    private volatile Throwable renewalFailure;

    HeldLock(LockEngine engine, KeyGate gate, String key, String storeKey, String owner, long fencingToken,
            long ttlMillis, long leaseEndNanos, Thread boundThread) {
        this.engine = engine;
        this.gate = gate;
        this.key = key;
        this.storeKey = storeKey;
        this.owner = owner;
        this.fencingToken = fencingToken;
        this.ttlMillis = ttlMillis;
        this.leaseEndNanos = leaseEndNanos;
        this.boundThread = boundThread;
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean isHeld() {
        return state.get() == State.HELD && leaseEndNanos - System.nanoTime() > 0;
    }

    @Override
    public Instant validUntil() {
        return Instant.now().plusNanos(leaseEndNanos - System.nanoTime());
    }

    @Override
    public CompletionStage<LockLostException> whenLost() {
        return lost.minimalCompletionStage();
    }

    @Override
    public void checkHeld() {
        if (isHeld()) {
            return;
        }
        LockLostException reason = lossReason;
        if (reason != null) {
            throw reason;
        }
        throw new LockLostException(key, fencingToken,
                state.get() == State.RELEASED ? "it was released" : "its lease ran out before it could be renewed", null);
    }

    @Override
    public boolean release() {
        State previous = state.getAndSet(State.RELEASED);
        if (previous == State.RELEASED) {
            return false;
        }
        // From here on a loss being reported cannot interrupt the thread, which is done with the work.
        unbindThread();
        cancel(renewal);
        cancel(watchdog);
        return engine.release(this, previous == State.HELD);
    }

    @Override
    public void close() {
        try {
            release();
        } catch (RuntimeException e) {
            dev.baton.impl.logging.BatonLog.releaseFailed(key, e);
        }
    }

    /** The work stopped running on its thread (its result is a stage that completes later). */
    public void unbindThread() {
        binding.lock();
        try {
            boundThread = null;
        } finally {
            binding.unlock();
        }
    }

    /**
     * @return the name of the lock manager this lock belongs to
     */
    public String managerName() {
        return engine.name();
    }

    @Override
    public String toString() {
        return "Lock[" + key + ", token=" + fencingToken + ", " + state.get() + "]";
    }

    // --- engine side ---

    boolean lose(String reason, Throwable cause) {
        if (!state.compareAndSet(State.HELD, State.LOST)) {
            return false;
        }
        LockLostException exception = new LockLostException(key, fencingToken, reason, cause);
        lossReason = exception;
        lost.complete(exception);
        return true;
    }

    LockLostException lossReason() {
        return lossReason;
    }

    boolean stillHeldState() {
        return state.get() == State.HELD;
    }

    Thread boundThread() {
        return boundThread;
    }

    /** Interrupts the thread running the work under this lock, if it still does. */
    void interruptWorker() {
        binding.lock();
        try {
            Thread worker = boundThread;
            if (worker != null) {
                worker.interrupt();
            }
        } finally {
            binding.unlock();
        }
    }

    KeyGate gate() {
        return gate;
    }

    String storeKey() {
        return storeKey;
    }

    String owner() {
        return owner;
    }

    long ttlMillis() {
        return ttlMillis;
    }

    long leaseEndNanos() {
        return leaseEndNanos;
    }

    void leaseRenewed(long sentAtNanos) {
        leaseEndNanos = sentAtNanos + TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        renewalFailure = null;
    }

    void renewalFailed(Throwable failure) {
        renewalFailure = failure;
    }

    Throwable renewalFailure() {
        return renewalFailure;
    }

    void renewal(ScheduledFuture<?> task) {
        renewal = task;
        if (state.get() != State.HELD) {
            task.cancel(false);
        }
    }

    void renewalDueAt(long nanos) {
        renewalDueAtNanos = nanos;
    }

    long renewalDueAt() {
        return renewalDueAtNanos;
    }

    /** @return true if no renewal call was in flight, and now one is */
    boolean startRenewing() {
        return renewing.compareAndSet(false, true);
    }

    void renewingDone() {
        renewing.set(false);
    }

    /** The scheduled renewal will not be needed: another lock's batch renews this one now. */
    void cancelRenewal() {
        cancel(renewal);
    }

    void watchdog(ScheduledFuture<?> task) {
        watchdog = task;
        if (state.get() != State.HELD) {
            task.cancel(false);
        }
    }

    private static void cancel(ScheduledFuture<?> task) {
        if (task != null) {
            task.cancel(false);
        }
    }
}
