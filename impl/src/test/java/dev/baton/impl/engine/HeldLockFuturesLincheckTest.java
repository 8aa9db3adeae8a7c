package dev.baton.impl.engine;

import dev.baton.LockLostException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.impl.testing.ModelChecks;
import java.util.concurrent.CompletableFuture;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The futures a {@link HeldLock} makes only when asked ({@link HeldLock#whenLost()}, {@link HeldLock#ended()}),
 * model-checked with Lincheck against the threads that complete them: a loss told by the engine, a revocation and
 * abandonment at shutdown, and holders asking for the futures at any moment, also two at once (the lazy future
 * is made by one compare-and-exchange). Each side sets its flag before it reads the other's field, so whichever
 * comes second completes the future: at every quiescent point a future asked for after or during a loss told is
 * complete, and so is one asked for around the abandonment.
 */
public class HeldLockFuturesLincheckTest {

    private static final int THREAD_IDS = 5;

    /** Made once, outside Lincheck's runs: the lock uses only its engine's clock and timers here. */
    private static final LockEngine ENGINE = Engines.engine(new MemoryLockStore(), Engines.scheduler(1), 60_000, 1_000);

    private final HeldLock lock = new HeldLock(ENGINE, null, "k", "k", "owner", 1, 60_000, 0, null, false);
    private final CompletableFuture<?>[] whenLost = new CompletableFuture<?>[THREAD_IDS];
    private final CompletableFuture<?>[] ended = new CompletableFuture<?>[THREAD_IDS];

    /** What the renewal does on a loss: marks it, then tells the holder. */
    @Operation
    public void tellLoss() {
        if (lock.lose("lost", null, false)) {
            lock.signalLost();
        }
    }

    /** What a shutdown does: revokes (tells the holder) and, at the end of its grace, abandons the lock. */
    @Operation
    public void revokeAndAbandon() {
        if (lock.lose("shutting down", null, true)) {
            lock.signalLost();
        }
        lock.abandon();
    }

    @Operation
    public void askWhenLost(@Param(gen = ThreadIdGen.class) int me) {
        whenLost[me] = lock.whenLost().toCompletableFuture();
    }

    @Operation
    public void askEnded(@Param(gen = ThreadIdGen.class) int me) {
        ended[me] = lock.ended();
    }

    @Validate
    public void everyFutureAskedForIsCompleteOnceItsEventHappened() {
        boolean lossTold = lock.lossReason() != null && !lock.lossUntold();
        for (int me = 0; me < THREAD_IDS; me++) {
            if (whenLost[me] != null && lossTold) {
                ModelChecks.check(
                        whenLost[me].getNow(null) instanceof LockLostException,
                        "whenLost() is complete with the reason once the loss was told");
            }
            if (ended[me] != null && lock.isAbandoned()) {
                ModelChecks.check(ended[me].isDone(), "ended() is complete once the lock was abandoned");
            }
        }
    }

    @Test
    void aFutureAskedForAroundItsEventIsCompletedUnderModelChecking() {
        ModelChecks.modelChecking().check(getClass());
    }

    @Test
    void aFutureAskedForAroundItsEventIsCompletedUnderStress() {
        ModelChecks.stress().check(getClass());
    }
}
