package dev.baton.impl.engine;

import dev.baton.impl.testing.ModelChecks;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The hand-over ticket ({@link HandOverTicket}), model-checked with Lincheck: the releasing holder (one thread) and
 * the waiting thread whose ticket it is (another) race, the releaser claiming the ticket and then handing the key
 * over or passing the permit on, the waiter stopping its wait (a timeout or an interrupt) or taking what was handed
 * to it. The ticket is linearizable: every outcome both threads report is the outcome of some order of their
 * operations, one at a time. And at every quiescent point the key has exactly one place once the holder let it go:
 * with the waiter (handed to it, taken or about to be) or back with the releaser, who gives the permit back as any
 * release does; never both, never neither (a key held for nobody), and a waiter that stopped waiting holds it only
 * when it was handed over.
 */
public class HandOverTicketLincheckTest {

    private final HandOverTicket ticket = new HandOverTicket(Thread.currentThread(), "owner-2", 30_000);

    private volatile boolean released;
    private volatile boolean permitBack;
    private volatile boolean waiterHolds;
    private volatile boolean waiterLeft;

    /**
     * The holder lets the key go once (a second call finds nothing to release): it claims the ticket of the queue's
     * first waiter and hands the key over, or the store refuses and it passes the permit on; a ticket already gone
     * leaves the permit with it.
     */
    @Operation(nonParallelGroup = "releaser")
    public String release(boolean storeHandsOver) {
        if (released) {
            return "nothing";
        }
        released = true;
        if (!ticket.claim()) {
            permitBack = true;
            return "ticket gone";
        }
        if (storeHandsOver) {
            ticket.handed(null, 1, 2);
            return "handed";
        }
        permitBack = true;
        ticket.passed();
        return "passed";
    }

    /** The waiter's time runs out, or it is interrupted: it leaves, or waits for the releaser's one store call. */
    @Operation(nonParallelGroup = "waiter")
    public String stopWaiting() {
        if (waiterLeft || waiterHolds) {
            return "done";
        }
        if (ticket.leave()) {
            waiterLeft = true;
            return "left";
        }
        if (ticket.awaitOutcome()) {
            waiterHolds = true;
            return "holds";
        }
        waiterLeft = true;
        return "passed on";
    }

    /** The waiter, woken, takes what was handed to it. */
    @Operation(nonParallelGroup = "waiter")
    public boolean wake() {
        if (waiterLeft || waiterHolds) {
            return false;
        }
        if (ticket.take()) {
            waiterHolds = true;
            return true;
        }
        return false;
    }

    @Validate
    public void theKeyHasOnePlace() {
        if (released) {
            ModelChecks.check(
                    ticket.isHanded() != permitBack,
                    "a released key is handed to the waiter or back with the releaser, exactly one of them");
        } else {
            ModelChecks.check(!ticket.isHanded() && !permitBack, "nothing is handed before the release");
        }
        ModelChecks.check(!waiterHolds || ticket.isTaken(), "a waiter holds the key only when it took it");
        ModelChecks.check(!(waiterLeft && ticket.isTaken()), "a waiter that left never took the key");
        ModelChecks.check(!(waiterLeft && ticket.isHanded()), "no key is handed to a waiter that left");
    }

    @Test
    void theTicketIsLinearizableAndTheKeyNeverHasTwoPlacesOrNone() {
        ModelChecks.modelChecking().threads(2).check(getClass());
    }

    @Test
    void theTicketHoldsUnderStress() {
        ModelChecks.stress().threads(2).check(getClass());
    }
}
