package dev.baton.impl.cdi;

import dev.baton.LockLostException;
import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import dev.baton.event.LockAcquired;
import dev.baton.event.LockLost;
import dev.baton.event.LockReleased;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockListener;
import dev.baton.impl.leadership.LeadershipListener;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.spi.BeanManager;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns engine notifications into CDI events, fired both synchronously ({@code @Observes}) and
 * asynchronously ({@code @ObservesAsync}). Event types nobody observes are not fired at all, so an
 * application without observers pays nothing on the hot path. {@code LockLost} is fired on one of
 * Baton's store-call threads (the engine hands losses there), so a slow observer delays no renewal.
 */
final class CdiLockListener implements LockListener, LeadershipListener {

    private final Event<Object> events;
    private final boolean acquiredObserved;
    private final boolean releasedObserved;
    private final boolean lostObserved;
    private final boolean skippedObserved;
    private final boolean grantedObserved;
    private final boolean revokedObserved;

    CdiLockListener(BeanManager beanManager) {
        this.events = beanManager.getEvent();
        this.acquiredObserved = observed(beanManager, new LockAcquired("", "k", 1));
        this.releasedObserved = observed(beanManager, new LockReleased("", "k", 1));
        this.lostObserved = observed(beanManager, new LockLost("", "k", 1, new LockLostException("k", 1, "-", null)));
        this.skippedObserved = observed(
                beanManager,
                new ScheduleSkipped(
                        "",
                        "k",
                        "m",
                        Instant.EPOCH,
                        Optional.empty(),
                        ScheduleSkipped.Reason.HELD_ELSEWHERE,
                        Optional.empty()));
        this.grantedObserved = observed(beanManager, new LeadershipGranted("", "n", 1));
        this.revokedObserved = observed(
                beanManager, new LeadershipRevoked("", "n", 1, dev.baton.Leadership.Reason.LOST, Optional.empty()));
    }

    private static boolean observed(BeanManager beanManager, Object sample) {
        return !beanManager.resolveObserverMethods(sample).isEmpty();
    }

    @Override
    public void acquired(HeldLock lock) {
        if (acquiredObserved) {
            fire(LockAcquired.class, new LockAcquired(lock.managerName(), lock.key(), lock.fencingToken()));
        }
    }

    @Override
    public void released(HeldLock lock) {
        if (releasedObserved) {
            fire(LockReleased.class, new LockReleased(lock.managerName(), lock.key(), lock.fencingToken()));
        }
    }

    @Override
    public void lost(HeldLock lock, LockLostException reason) {
        if (lostObserved) {
            fire(LockLost.class, new LockLost(lock.managerName(), lock.key(), lock.fencingToken(), reason));
        }
    }

    /**
     * @param event a skipped firing of an {@code @Exclusive} method
     */
    void skipped(ScheduleSkipped event) {
        if (skippedObserved) {
            fire(ScheduleSkipped.class, event);
        }
    }

    @Override
    public void granted(LeadershipGranted granted) {
        if (grantedObserved) {
            fire(LeadershipGranted.class, granted);
        }
    }

    @Override
    public void revoked(LeadershipRevoked revoked) {
        if (revokedObserved) {
            fire(LeadershipRevoked.class, revoked);
        }
    }

    private <T> void fire(Class<T> type, T event) {
        Event<T> typed = events.select(type);
        typed.fire(event);
        typed.fireAsync(event);
    }
}
