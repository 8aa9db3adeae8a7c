package dev.baton.impl.time;

import dev.baton.impl.testing.ModelChecks;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import org.junit.jupiter.api.Test;

/**
 * Proof that the permit's Lincheck tests bite: {@link FairPermit}'s code copied with one flaw, a take that reads
 * the state and then writes it instead of one compare-and-set, must fail both of them.
 */
class FlawedPermitLincheckTest {

    @Test
    void theLinearizabilityCheckCatchesATakeWithoutCompareAndSet() {
        ModelChecks.assertCaught(
                ModelChecks.modelChecking().sequentialSpecification(FairPermitLincheckTest.OnePermit.class),
                OnFlawedPermit.class,
                "Invalid execution results");
    }

    @Test
    void theWaitingCheckCatchesATakeWithoutCompareAndSet() {
        ModelChecks.assertCaught(
                // A larger budget than the common one: the check stops at its first failure, and this race needs two
                // takers in one scenario and two switches (inside the take, and while the other one holds).
                FairPermitWaitingLincheckTest.modelChecking().iterations(20).invocationsPerIteration(500),
                WaitingOnFlawedPermit.class,
                "two holders of one permit");
    }

    /** {@link FairPermitLincheckTest} on the flawed permit. */
    public static class OnFlawedPermit extends FairPermitLincheckTest {
        @Override
        Permit newPermit() {
            return new CheckThenSetPermit();
        }
    }

    /** {@link FairPermitWaitingLincheckTest} on the flawed permit. */
    public static class WaitingOnFlawedPermit extends FairPermitWaitingLincheckTest {
        @Override
        Permit newPermit() {
            return new CheckThenSetPermit();
        }
    }

    /** {@link FairPermit} as it is, but for the check-then-set in place of {@code compareAndSetState(1, 0)}. */
    private static final class CheckThenSetPermit extends AbstractQueuedSynchronizer implements Permit {
        private static final long serialVersionUID = 1L;

        CheckThenSetPermit() {
            setState(1);
        }

        private boolean takeIfFree() {
            if (getState() == 1) {
                setState(0); // the flaw: another thread may have taken it since the read
                return true;
            }
            return false;
        }

        @Override
        public boolean tryTake() {
            return takeIfFree();
        }

        @Override
        public boolean tryTake(long timeoutNanos) throws InterruptedException {
            return tryAcquireNanos(1, timeoutNanos);
        }

        @Override
        public void give() {
            release(1);
        }

        @Override
        public boolean isFree() {
            return getState() == 1;
        }

        @Override
        protected boolean tryAcquire(int ignored) {
            return !hasQueuedPredecessors() && takeIfFree();
        }

        @Override
        protected boolean tryRelease(int ignored) {
            setState(1);
            return true;
        }
    }
}
