package dev.baton.impl.time;

import dev.baton.impl.testing.ModelChecks;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * {@link FairPermit} with threads that wait for it in turn while others barge in and give it back, model-checked
 * with Lincheck. A take in turn is not linearizable to one atomic permit (it may fail while the permit is free, when
 * a queued thread is about to take it, see {@link FairPermit}), so each operation here holds the permit only within
 * itself and the check is of what the engine relies on: one holder at a time (a second one inside throws), and no
 * waiter left parked once the permit is free (Lincheck reports a hung execution). Model checking runs with time
 * standing still, so the waits here never time out; the stress run waits with real timeouts.
 */
public class FairPermitWaitingLincheckTest {

    final Permit permit = newPermit();
    /** Threads holding the permit now: a plain field, so that Lincheck sees every read and write of it. */
    private int holders;

    Permit newPermit() {
        return Permit.of(new FairPermit() {
            private static final long serialVersionUID = 1L;
        });
    }

    /** Waits in turn (in model checking: until given, time does not pass), holds, gives back. */
    @Operation
    public void takeInTurnAndGive() throws InterruptedException {
        if (permit.tryTake(1_000_000_000L)) {
            hold();
        }
    }

    /** Barges in if free, past the queue, and if so holds and gives back. */
    @Operation
    public void bargeAndGive() {
        if (permit.tryTake()) {
            hold();
        }
    }

    /** Takes it in turn only if nobody waits and it is free now; if so holds and gives back. */
    @Operation
    public void tryInTurnAndGive() throws InterruptedException {
        if (permit.tryTake(0)) {
            hold();
        }
    }

    void hold() {
        if (holders++ != 0) {
            throw new IllegalStateException("two holders of one permit");
        }
        holders--;
        permit.give();
    }

    @Test
    void oneHolderAtATimeAndNoWaiterLeftBehindUnderModelChecking() {
        modelChecking().check(getClass());
    }

    @Test
    void oneHolderAtATimeAndNoWaiterLeftBehindUnderStress() {
        ModelChecks.stress().check(getClass());
    }

    /** Two operations a thread: a race needs two threads inside the permit's code at once, not long scenarios. */
    static ModelCheckingOptions modelChecking() {
        return ModelChecks.modelChecking().actorsPerThread(2);
    }
}
