package dev.baton.impl.time;

import dev.baton.impl.testing.ModelChecks;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * {@link FairPermitWaitingLincheckTest} with waiters that give up: a wait ends early on a time-out or an interrupt,
 * and both leave the permit's queue the same way (the queued thread cancels its place). Lincheck's clock stands still,
 * so the waits here end by an interrupt, sent by another thread at any point of the waiter's code. The same checks
 * (one holder at a time, no waiter left parked once the permit is free) run with these operations besides the
 * others, and are proven to bite by a permit that gives the permit back as its waiter gives up.
 */
public class FairPermitGivingUpLincheckTest extends FairPermitWaitingLincheckTest {

    /** The thread waiting in {@link #takeInTurnOrGiveUp} now, if any: the one an interrupt is sent to. */
    private volatile Thread waiter;

    /** Waits in turn until given the permit or interrupted; if given, holds and gives back. */
    @Operation
    public void takeInTurnOrGiveUp() {
        synchronized (this) {
            waiter = Thread.currentThread();
        }
        try {
            if (permit.tryTake(1_000_000_000L)) {
                hold();
            }
        } catch (InterruptedException e) {
            // gave up: holds nothing
        } finally {
            synchronized (this) {
                waiter = null; // no interrupt is sent to this thread from here on
            }
            Thread.interrupted(); // and one sent before it returned is not left to a later operation
        }
    }

    /** Stops the current waiter's wait, as its time-out would (only while it is inside its operation). */
    @Operation
    public void interruptTheWaiter() {
        synchronized (this) {
            Thread thread = waiter;
            if (thread != null) {
                thread.interrupt();
            }
        }
    }

    @Test
    void theCheckCatchesAWaiterThatGivesThePermitBackAsItGivesUp() {
        ModelChecks.assertCaught(
                // A larger budget than the common one: the flaw needs a holder, a waiter and its interrupt in one
                // scenario, and a barging thread between the waiter's give-back and the holder's.
                modelChecking().iterations(30).invocationsPerIteration(500),
                OnPermitGivenBackOnGivingUp.class,
                "two holders of one permit");
    }

    /** This test on a permit whose wait, when interrupted, gives back a permit it never took. */
    public static class OnPermitGivenBackOnGivingUp extends FairPermitGivingUpLincheckTest {
        @Override
        Permit newPermit() {
            Permit real = super.newPermit();
            return new Permit() {
                @Override
                public boolean tryTake() {
                    return real.tryTake();
                }

                @Override
                public boolean tryTake(long timeoutNanos) throws InterruptedException {
                    try {
                        return real.tryTake(timeoutNanos);
                    } catch (InterruptedException e) {
                        real.give(); // the flaw: a "clean-up" that gives back a permit this thread never took
                        throw e;
                    }
                }

                @Override
                public void give() {
                    real.give();
                }

                @Override
                public boolean isFree() {
                    return real.isFree();
                }
            };
        }
    }
}
