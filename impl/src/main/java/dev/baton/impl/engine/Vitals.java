package dev.baton.impl.engine;

import java.util.concurrent.TimeUnit;

/**
 * Whether one lock manager's renewal machinery keeps up, read from its held locks at one moment: a
 * renewal that should have been sent more than a third of its lock's ttl ago and was not (its timer or
 * the store-call threads are stalled: a renewal already sent and waiting for a slow store is the
 * store's problem, not this), and a lock lost (or whose lease ran out) more than a third of its ttl ago
 * whose holder has not been told.
 *
 * @param held the locks the manager holds
 * @param overdueRenewals how many renewals are overdue by more than a third of their ttl
 * @param mostOverdueMillis how long the most overdue of them is overdue; 0 if none
 * @param untoldLosses how many lost locks' holders have not been told for more than a third of their ttl
 */
public record Vitals(int held, int overdueRenewals, long mostOverdueMillis, int untoldLosses) {

    /**
     * @param engine the manager's engine
     * @return its vitals now
     */
    public static Vitals of(LockEngine engine) {
        long now = engine.time().nanoTime();
        int held = 0;
        int overdue = 0;
        long worst = 0;
        int untold = 0;
        for (HeldLock lock : engine.heldLocks()) {
            long slack = TimeUnit.MILLISECONDS.toNanos(Math.max(1, lock.ttlMillis() / 3));
            if (lock.stillHeldState()) {
                held++;
                if (now - lock.leaseEndNanos() > slack) {
                    untold++; // its lease is long over and nobody noticed: the lease watchdog did not run
                    continue;
                }
            }
            if (lock.renewable()
                    && !lock.renewal().inFlight()
                    && now - lock.renewal().dueAt() > slack) {
                overdue++;
                worst = Math.max(
                        worst,
                        TimeUnit.NANOSECONDS.toMillis(now - lock.renewal().dueAt()));
            }
            if (lock.lossUntold() && now - lock.lostAtNanos() > slack) {
                untold++;
            }
        }
        return new Vitals(held, overdue, worst, untold);
    }

    /** @return whether nothing is overdue and every loss was told */
    public boolean live() {
        return overdueRenewals == 0 && untoldLosses == 0;
    }
}
