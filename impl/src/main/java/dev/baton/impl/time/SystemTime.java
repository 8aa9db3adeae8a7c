package dev.baton.impl.time;

import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Real time: {@link System#nanoTime()}, timers on a {@link ScheduledExecutorService}. */
final class SystemTime implements EngineTime {

    private final ScheduledExecutorService scheduler;

    SystemTime(ScheduledExecutorService scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Scheduled schedule(Runnable task, long delayNanos) {
        ScheduledFuture<?> future = scheduler.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void park(Object blocker, long nanos) {
        LockSupport.parkNanos(blocker, nanos);
    }

    @Override
    public boolean tryAcquire(FairPermit permit, long timeoutNanos) throws InterruptedException {
        return timeoutNanos <= 0 ? permit.tryTake() : permit.tryTake(timeoutNanos);
    }

    @Override
    public String toString() {
        return "system time on " + scheduler;
    }
}
