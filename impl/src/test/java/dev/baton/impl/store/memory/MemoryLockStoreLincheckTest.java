package dev.baton.impl.store.memory;

import dev.baton.impl.testing.ModelChecks;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import dev.baton.spi.Turn;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryLockStore} model-checked with Lincheck: three threads acquire (with and without a turn), renew,
 * release, inspect and give up turns on two keys as three owners and two waiters, on a clock that stands still.
 * Every call is one atomic step of its key's entry, so the store is linearizable to itself run one call at a time
 * (Lincheck's default specification: this class, sequentially); the contract itself, sequence by sequence, is the
 * store properties' ({@code MemoryStorePropertiesTest}). Tokens are compared per key, as the contract promises them:
 * a token is drawn inside its key's step, so two keys' acquisitions may become visible in the other order than their
 * tokens (Lincheck showed it when the operations returned tokens). At quiescence each key's holder has the key's
 * greatest token, and each release and each turn given up was notified exactly once.
 */
public class MemoryLockStoreLincheckTest {

    private static final long TTL = 60_000;

    private final MemoryLockStore store = new MemoryLockStore(() -> 0L);
    private final AtomicInteger notified = new AtomicInteger();
    private final AtomicInteger freed = new AtomicInteger();
    /** The greatest token acquired per key. */
    private final AtomicLongArray greatest = new AtomicLongArray(2);

    public MemoryLockStoreLincheckTest() {
        store.onRelease(key -> notified.incrementAndGet());
    }

    /** @return acquired, next in turn or not acquired */
    @Operation
    public String acquire(
            @Param(gen = IntGen.class, conf = "0:1") int key, @Param(gen = IntGen.class, conf = "0:1") int owner) {
        return answer(key, store.acquire(Acquisition.of("k" + key, "owner-" + owner, TTL)));
    }

    /** With a turn: waiter 0 has waited longer than waiter 1. */
    @Operation
    public String acquireInTurn(
            @Param(gen = IntGen.class, conf = "0:1") int key,
            @Param(gen = IntGen.class, conf = "0:1") int owner,
            @Param(gen = IntGen.class, conf = "0:1") int waiter) {
        Turn turn = new Turn("waiter-" + waiter, waiter == 0 ? 100 : 0, TTL);
        return answer(
                key, store.acquire(new Acquisition("k" + key, "owner-" + owner, TTL, LockArguments.STORE_BOUND, turn)));
    }

    private String answer(int key, AcquireResult result) {
        if (result.isAcquired()) {
            greatest.accumulateAndGet(key, result.fencingToken(), Math::max);
            return "acquired";
        }
        return result.isNextInTurn() ? "next in turn" : "not acquired";
    }

    @Operation
    public boolean renew(
            @Param(gen = IntGen.class, conf = "0:1") int key, @Param(gen = IntGen.class, conf = "0:1") int owner) {
        return store.renew(Renewal.of("k" + key, "owner-" + owner, TTL));
    }

    @Operation
    public boolean release(
            @Param(gen = IntGen.class, conf = "0:1") int key, @Param(gen = IntGen.class, conf = "0:1") int owner) {
        boolean released = store.release("k" + key, "owner-" + owner);
        if (released) {
            freed.incrementAndGet();
        }
        return released;
    }

    @Operation
    public boolean leaveTurn(
            @Param(gen = IntGen.class, conf = "0:1") int key, @Param(gen = IntGen.class, conf = "0:1") int waiter) {
        boolean left = store.leaveTurn("k" + key, "waiter-" + waiter);
        if (left) {
            freed.incrementAndGet();
        }
        return left;
    }

    /** @return the holder's owner, or "none" */
    @Operation
    public String inspect(@Param(gen = IntGen.class, conf = "0:1") int key) {
        return store.inspect("k" + key).map(Holder::owner).orElse("none");
    }

    @Validate
    public void tokensIncreasePerKeyAndEveryReleaseWasNotifiedOnce() {
        for (int key = 0; key < 2; key++) {
            long token = store.inspect("k" + key).map(Holder::fencingToken).orElse(Long.MAX_VALUE);
            ModelChecks.check(
                    token == Long.MAX_VALUE || token == greatest.get(key),
                    "the holder of k" + key + " has its greatest token");
        }
        ModelChecks.check(
                notified.get() == freed.get(), freed + " releases and turns given up, " + notified + " notifications");
    }

    @Test
    void isLinearizableUnderModelChecking() {
        // Shorter scenarios: each call is a whole map step.
        ModelChecks.modelChecking().actorsPerThread(2).check(getClass());
    }

    @Test
    void isLinearizableUnderStress() {
        ModelChecks.stress().check(getClass());
    }
}
