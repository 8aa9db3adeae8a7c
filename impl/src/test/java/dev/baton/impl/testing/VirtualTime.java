package dev.baton.impl.testing;

import dev.baton.impl.time.EngineTime;
import dev.baton.impl.time.FairPermit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Time that stands still until a test moves it: {@link #advance} runs the timers that fall due, in order of
 * their due time (then of planning), each at its own due time, on the test's thread. Threads waiting on it
 * (poll pauses, a key's local queue) wake when time passes their deadline. What a renewal or a wait does is
 * then an exact schedule, whatever the load on the machine.
 */
public final class VirtualTime implements EngineTime {

    /** Where the clock starts: far from zero, so nothing may rely on {@code nanoTime() > 0}. */
    private static final long START = Long.MAX_VALUE - TimeUnit.DAYS.toNanos(1);

    private final Object lock = new Object();
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    /** Threads parked or queued on this time. */
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
    /** How many times a thread started waiting on this time. */
    private final AtomicInteger waits = new AtomicInteger();

    private volatile long now = START;
    private long planned;
    private boolean shutDown;

    private final class Task implements Comparable<Task>, Scheduled {
        final long due;
        final long order;
        final Runnable body;
        volatile boolean cancelled;

        Task(long due, long order, Runnable body) {
            this.due = due;
            this.order = order;
            this.body = body;
        }

        @Override
        public int compareTo(Task other) {
            int byDue = Long.compare(due - START, other.due - START);
            return byDue != 0 ? byDue : Long.compare(order, other.order);
        }

        @Override
        public void cancel() {
            cancelled = true;
            synchronized (lock) {
                tasks.remove(this);
            }
        }
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /** @return how long this time has run since it was made */
    public Duration elapsed() {
        return Duration.ofNanos(now - START);
    }

    /** @return {@link #elapsed()} in milliseconds */
    public long millis() {
        return TimeUnit.NANOSECONDS.toMillis(now - START);
    }

    @Override
    public Scheduled schedule(Runnable task, long delayNanos) {
        synchronized (lock) {
            if (shutDown) {
                throw new RejectedExecutionException("virtual time is shut down");
            }
            Task t = new Task(now + Math.max(0, delayNanos), planned++, task);
            tasks.add(t);
            return t;
        }
    }

    /**
     * Moves time forward by {@code duration}, running every timer due by then, each at its due time, on
     * this thread (timers planned meanwhile too, if due by then).
     *
     * @param duration how far, not negative
     */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time only moves forward, not by " + duration);
        }
        long target = now + duration.toNanos();
        while (true) {
            Task next;
            synchronized (lock) {
                next = tasks.peek();
                if (next == null || next.due - target > 0) {
                    now = target;
                    return;
                }
                tasks.poll();
                if (next.due - now > 0) {
                    now = next.due;
                }
            }
            if (!next.cancelled) {
                next.body.run();
            }
        }
    }

    /** {@link #advance} by {@code millis} milliseconds. */
    public void advanceMillis(long millis) {
        advance(Duration.ofMillis(millis));
    }

    /**
     * Moves time to the next planned timer and runs it (and any other due then).
     *
     * @return false if no timer was planned (time did not move)
     */
    public boolean advanceToNext() {
        long due;
        synchronized (lock) {
            Task next = tasks.peek();
            if (next == null) {
                return false;
            }
            due = next.due;
        }
        advance(Duration.ofNanos(Math.max(0, due - now)));
        return true;
    }

    /** Runs the timers due now. */
    public void runDue() {
        advance(Duration.ZERO);
    }

    /** @return when the planned timers fall due, in milliseconds of {@link #elapsed()}, in order */
    public List<Long> plannedMillis() {
        List<Task> copy;
        synchronized (lock) {
            copy = new ArrayList<>(tasks);
        }
        copy.sort(null);
        List<Long> due = new ArrayList<>();
        copy.forEach(t -> due.add(TimeUnit.NANOSECONDS.toMillis(t.due - START)));
        return due;
    }

    @Override
    public void park(Object blocker, long nanos) {
        if (nanos <= 0) {
            return;
        }
        Thread thread = Thread.currentThread();
        Scheduled wake = schedule(() -> LockSupport.unpark(thread), nanos);
        waiting.add(thread);
        waits.incrementAndGet();
        try {
            LockSupport.park(blocker);
        } finally {
            waiting.remove(thread);
            wake.cancel();
        }
    }

    /** Waits in short real slices, so it notices both a permit and its virtual deadline. */
    @Override
    public boolean tryAcquire(FairPermit permit, long timeoutNanos) throws InterruptedException {
        if (permit.tryTake()) {
            return true;
        }
        if (timeoutNanos <= 0) {
            return false;
        }
        long deadline = now + timeoutNanos;
        Thread thread = Thread.currentThread();
        waiting.add(thread);
        waits.incrementAndGet();
        try {
            while (true) {
                if (permit.tryTake(1, TimeUnit.MILLISECONDS)) {
                    return true;
                }
                if (now - deadline >= 0) {
                    return false;
                }
            }
        } finally {
            waiting.remove(thread);
        }
    }

    /** @return how many times a thread started waiting on this time (parked, or queued with a deadline) */
    public int waits() {
        return waits.get();
    }

    /**
     * Waits (real time, at most 10 s) until {@code threads} threads wait on this time.
     *
     * @param threads how many
     */
    public void awaitWaiting(int threads) {
        awaitReal(() -> waiting.size() >= threads, threads + " threads waiting on virtual time");
    }

    /**
     * Waits (real time, at most 10 s) until {@code condition} holds: for what other threads do while virtual
     * time stands still.
     *
     * @param condition what to wait for
     * @param what said if it never holds
     */
    public static void awaitReal(BooleanSupplier condition, String what) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("not within 10 s (real time): " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Drops the planned timers and refuses new ones, as a scheduler shut down does. */
    public void shutdown() {
        synchronized (lock) {
            shutDown = true;
            tasks.clear();
        }
    }
}
