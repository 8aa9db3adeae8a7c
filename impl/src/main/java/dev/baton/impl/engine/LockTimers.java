package dev.baton.impl.engine;

import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.time.EngineTime;
import dev.baton.impl.time.EngineTime.Scheduled;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;

/**
 * The timers of all of one engine's held locks: each lock's next renewal and the end of its lease, kept
 * in one heap ordered by whichever of the two comes first, with a single wake-up planned on the engine's
 * time for the earliest. A held lock so costs a heap slot and two numbers, not two scheduled tasks (which
 * were a third of its heap, and two schedule/cancel pairs on the scheduler's shared queue per hold); and a
 * server's managed scheduler, which captures context per task, sees one task at a time per engine.
 *
 * <p>Every method is short and takes this object's monitor; the handlers run on the scheduler's thread
 * outside it, and may plan again. Times are values of {@link EngineTime#nanoTime()}, compared by
 * difference (they may wrap).
 */
final class LockTimers {

    /** What falls due. */
    interface Handler {
        /** The lock's planned renewal is due. */
        void renewalDue(HeldLock lock);

        /** The lock's lease end, planned for {@code dueAtNanos}, is reached (by the clock: the lock may have been renewed). */
        void leaseEndDue(HeldLock lock, long dueAtNanos);
    }

    private final EngineTime time;
    private final Handler handler;

    private LockRenewal[] heap = new LockRenewal[16];
    private int size;
    /** The one wake-up planned, for {@link #wakeAtNanos}; null if none. */
    private Scheduled wake;

    private long wakeAtNanos;
    /**
     * Counts plans: timers due at the same time run in the order they were planned. An int that may wrap: two
     * plans are compared by their difference, right while fewer than 2^31 plans lie between them.
     */
    private int plans;
    /** A wake-up is running what is due: it plans the next one when done. */
    private boolean waking;

    LockTimers(EngineTime time, Handler handler) {
        this.time = time;
        this.handler = handler;
    }

    /**
     * Plans a lock just acquired: its first renewal and its lease check, in one pass through the monitor
     * (acquire is the hot path).
     */
    synchronized void plan(LockRenewal renewal, long renewAtNanos, long watchAtNanos) {
        if (renewal.stopped()) {
            return;
        }
        renewal.renewAt = renewAtNanos;
        renewal.renewPlanned = true;
        renewal.watchAt = watchAtNanos;
        renewal.watchPlanned = true;
        renewal.plannedOrder = ++plans;
        place(renewal);
        planWake();
    }

    /** Plans the renewal of {@code renewal}'s lock for {@code atNanos}, replacing one planned before; not after {@link LockRenewal#stop}. */
    synchronized void renewAt(LockRenewal renewal, long atNanos) {
        if (renewal.stopped()) {
            return;
        }
        renewal.renewAt = atNanos;
        renewal.renewPlanned = true;
        renewal.plannedOrder = ++plans;
        place(renewal);
        planWake();
    }

    /** Drops the planned renewal of {@code renewal}'s lock, if any; its lease end stays watched. */
    synchronized void cancelRenewal(LockRenewal renewal) {
        if (renewal.renewPlanned) {
            renewal.renewPlanned = false;
            place(renewal);
            planWake();
        }
    }

    /** Plans the check of {@code renewal}'s lease end for {@code atNanos}, replacing one planned before; not after {@link LockRenewal#stop}. */
    synchronized void watchAt(LockRenewal renewal, long atNanos) {
        if (renewal.stopped()) {
            return;
        }
        renewal.watchAt = atNanos;
        renewal.watchPlanned = true;
        renewal.plannedOrder = ++plans;
        place(renewal);
        planWake();
    }

    /** Drops both timers of {@code renewal}'s lock. */
    synchronized void remove(LockRenewal renewal) {
        renewal.renewPlanned = false;
        renewal.watchPlanned = false;
        place(renewal);
        planWake();
    }

    /**
     * Cancels the wake-up left planned, at engine shutdown: nothing is due any more, and a server's scheduler
     * would otherwise keep the engine until it falls due.
     */
    synchronized void cancelWake() {
        if (size == 0 && wake != null) {
            wake.cancel();
            wake = null;
        }
    }

    /** @return how many locks have a timer planned */
    synchronized int planned() {
        return size;
    }

    /**
     * On the scheduler: runs what is due, one lock at a time in order of due time, so that a handler that
     * drops other locks' timers (a batch renewal takes them along) is seen before those fall due; then
     * plans the next wake-up.
     */
    private void wake() {
        while (true) {
            LockRenewal top;
            boolean renewalDue = false;
            boolean leaseEndDue = false;
            long leaseEndAt = 0;
            synchronized (this) {
                wake = null;
                long now = time.nanoTime();
                if (size == 0 || heap[0].nextTimerAt() - now > 0) {
                    waking = false;
                    planWake();
                    return;
                }
                waking = true; // the loop plans the next wake-up itself
                top = heap[0];
                if (top.renewPlanned && top.renewAt - now <= 0) {
                    top.renewPlanned = false;
                    renewalDue = true;
                }
                if (top.watchPlanned && top.watchAt - now <= 0) {
                    top.watchPlanned = false;
                    leaseEndDue = true;
                    leaseEndAt = top.watchAt;
                }
                place(top);
            }
            try {
                if (renewalDue) {
                    handler.renewalDue(top.lock());
                }
                if (leaseEndDue) {
                    handler.leaseEndDue(top.lock(), leaseEndAt);
                }
            } catch (RuntimeException e) {
                BatonLog.renewalFailed(
                        top.lock().logKeys(), top.lock().key(), e); // one lock's trouble stops no other's timers
            }
        }
    }

    /** Puts {@code renewal} where its earliest timer belongs, or out of the heap if it has none; the caller plans the wake-up. */
    private void place(LockRenewal renewal) {
        boolean planned = renewal.renewPlanned || renewal.watchPlanned;
        int index = renewal.heapIndex;
        if (index < 0) {
            if (!planned) {
                return;
            }
            if (size == heap.length) {
                heap = Arrays.copyOf(heap, size * 2);
            }
            heap[size] = renewal;
            renewal.heapIndex = size;
            siftUp(size++);
        } else if (!planned) {
            removeAt(index);
        } else {
            siftDown(siftUp(index));
        }
    }

    private void removeAt(int index) {
        LockRenewal removed = heap[index];
        removed.heapIndex = -1;
        LockRenewal last = heap[--size];
        heap[size] = null;
        if (index < size) {
            heap[index] = last;
            last.heapIndex = index;
            siftDown(siftUp(index));
        }
        if (size == 0 && heap.length > 64) {
            heap = new LockRenewal[16]; // all released: give the memory of a burst back
        }
    }

    /** Makes sure a wake-up is planned no later than the earliest timer; none if there is none. */
    private void planWake() {
        if (waking) {
            return;
        }
        if (size == 0) {
            // The wake-up is left planned: it finds nothing due and plans nothing. Cancelling it, and planning
            // one again at the next acquisition, cost a schedule and a cancel on the scheduler (and a wake-up
            // of its thread) per hold; left, one wake-up serves every hold until it falls due.
            return;
        }
        long earliest = heap[0].nextTimerAt();
        if (wake != null && wakeAtNanos - earliest <= 0) {
            return; // planned early enough: it plans the next one when it runs
        }
        if (wake != null) {
            wake.cancel();
        }
        long delay = Math.max(0, earliest - time.nanoTime());
        try {
            wake = time.schedule(this::wake, delay);
            wakeAtNanos = earliest;
        } catch (RejectedExecutionException e) {
            // The scheduler is shutting down (application stop): leases run out by themselves in the store.
            wake = null;
            BatonLog.renewalFailed(heap[0].lock().logKeys(), heap[0].lock().key(), e);
        }
    }

    private int siftUp(int index) {
        LockRenewal moving = heap[index];
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            LockRenewal above = heap[parent];
            if (!earlier(moving, above)) {
                break;
            }
            heap[index] = above;
            above.heapIndex = index;
            index = parent;
        }
        heap[index] = moving;
        moving.heapIndex = index;
        return index;
    }

    private void siftDown(int index) {
        LockRenewal moving = heap[index];
        int half = size >>> 1;
        while (index < half) {
            int child = 2 * index + 1;
            int right = child + 1;
            if (right < size && earlier(heap[right], heap[child])) {
                child = right;
            }
            if (!earlier(heap[child], moving)) {
                break;
            }
            heap[index] = heap[child];
            heap[index].heapIndex = index;
            index = child;
        }
        heap[index] = moving;
        moving.heapIndex = index;
    }

    /** Whether {@code a}'s next timer comes before {@code b}'s: by due time, then by when it was planned. */
    private static boolean earlier(LockRenewal a, LockRenewal b) {
        long byTime = a.nextTimerAt() - b.nextTimerAt();
        return byTime != 0 ? byTime < 0 : a.plannedOrder - b.plannedOrder < 0;
    }
}
