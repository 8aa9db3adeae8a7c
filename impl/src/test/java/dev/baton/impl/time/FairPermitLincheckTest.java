package dev.baton.impl.time;

import dev.baton.impl.testing.ModelChecks;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * {@link FairPermit} model-checked with Lincheck: taking it (barging, or in turn without waiting), giving it back
 * (twice, from a thread that does not hold it), looking whether it is free, from three threads, against one
 * permit taken and given atomically ({@link OnePermit}). Waiting in turn is checked by
 * {@link FairPermitWaitingLincheckTest}; {@link FlawedPermitLincheckTest} shows this test catches a permit taken
 * without a compare-and-set.
 */
public class FairPermitLincheckTest {

    private final Permit permit = newPermit();

    /** What the test takes and gives: the real permit here, a flawed copy in {@link FlawedPermitLincheckTest}. */
    Permit newPermit() {
        return Permit.of(new FairPermit() {
            private static final long serialVersionUID = 1L;
        });
    }

    @Operation
    public boolean tryTake() {
        return permit.tryTake();
    }

    /** In turn, without waiting: with nobody queued (no thread waits here), exactly {@link #tryTake()}. */
    @Operation
    public boolean tryTakeInTurn() throws InterruptedException {
        return permit.tryTake(0);
    }

    @Operation
    public void give() {
        permit.give();
    }

    @Operation
    public boolean isFree() {
        return permit.isFree();
    }

    @Test
    void isLinearizableToOnePermitUnderModelChecking() {
        ModelChecks.modelChecking().sequentialSpecification(OnePermit.class).check(getClass());
    }

    @Test
    void isLinearizableToOnePermitUnderStress() {
        ModelChecks.stress().sequentialSpecification(OnePermit.class).check(getClass());
    }

    /** The sequential specification: one permit, taken if free, given back (never two). */
    public static final class OnePermit {
        private boolean free = true;

        public boolean tryTake() {
            boolean took = free;
            free = false;
            return took;
        }

        public boolean tryTakeInTurn() {
            return tryTake();
        }

        public void give() {
            free = true;
        }

        public boolean isFree() {
            return free;
        }
    }
}
