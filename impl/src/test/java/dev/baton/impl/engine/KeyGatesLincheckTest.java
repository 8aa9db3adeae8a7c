package dev.baton.impl.engine;

import dev.baton.impl.testing.ModelChecks;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The engine's held-lock bookkeeping in {@link KeyGates} and {@link KeyGate}, model-checked with Lincheck: threads
 * take two keys through their gates (as an acquisition that gets to the front of the local queue does), release
 * them as {@link LockEngine#forget} does, and shut down as {@code finishClosing} does (a lock abandoned there leaves
 * the list but keeps its gate until its holder releases it). Taking and releasing are linearizable to a map of keys
 * to holders ({@link Holders}); at every quiescent point ({@link #bookkeepingAddsUp()}) each lock taken was counted
 * as given up exactly once (by its release or by the shutdown, never by both), the list holds exactly the locks
 * neither gave up, and a gate is in the map exactly while its lock holds it.
 */
public class KeyGatesLincheckTest {

    private static final int KEYS = 2;
    private static final int THREADS = 3;
    /** Thread ids of the scenario's threads, and of the parts before and after them. */
    private static final int THREAD_IDS = THREADS + 2;

    private final KeyGates gates = new KeyGates();
    /** Each thread's own locks, by key: what its release starts from (the holder's reference, as in the engine). */
    private final HeldLock[] taken = new HeldLock[THREAD_IDS * KEYS];

    private final AtomicInteger acquired = new AtomicInteger();
    /** Locks whose end was counted: a release or the shutdown cleared them from their gate ({@code clearHolder}). */
    private final AtomicInteger givenUp = new AtomicInteger();

    @Operation
    public boolean acquire(@Param(gen = IntGen.class, conf = "0:1") int key, @Param(gen = ThreadIdGen.class) int me)
            throws InterruptedException {
        String storeKey = storeKey(key);
        KeyGate gate = gates.enter(storeKey);
        if (!gate.tryEnterNow()) {
            gates.exit(storeKey, gate);
            return false;
        }
        HeldLock lock = new HeldLock(null, gate, storeKey, storeKey, "owner-" + me, 1, 60_000, 0, null, false);
        gate.holder(lock);
        acquired.incrementAndGet();
        taken[me * KEYS + key] = lock;
        return true;
    }

    /** What {@link LockEngine#forget} does with a lock held through the queue. */
    @Operation
    public void release(@Param(gen = IntGen.class, conf = "0:1") int key, @Param(gen = ThreadIdGen.class) int me) {
        HeldLock lock = taken[me * KEYS + key];
        if (lock == null) {
            return;
        }
        taken[me * KEYS + key] = null;
        KeyGate gate = lock.gate();
        if (gate.clearHolder(lock)) {
            givenUp.incrementAndGet();
        }
        gate.leave();
        gates.exit(lock.storeKey(), gate);
    }

    /** What the end of a shutdown does with the locks still listed: abandoned, no longer listed, gates kept. */
    @Operation
    public void shutDown() {
        for (HeldLock lock : gates.heldLocks()) {
            if (lock.gate().clearHolder(lock)) {
                givenUp.incrementAndGet();
            }
        }
    }

    @Validate
    public void bookkeepingAddsUp() {
        int stillTaken = 0;
        for (int key = 0; key < KEYS; key++) {
            int holders = 0;
            for (int me = 0; me < THREAD_IDS; me++) {
                holders += taken[me * KEYS + key] == null ? 0 : 1;
            }
            ModelChecks.check(holders <= 1, "one holder of key " + key);
            ModelChecks.check(
                    gates.users(storeKey(key)) == holders, "the gate of key " + key + " has its holder as user");
            ModelChecks.check(
                    (gates.get(storeKey(key)) == null) == (holders == 0),
                    "the gate of key " + key + " is mapped while held");
            stillTaken += holders;
        }
        int listed = gates.heldCount();
        ModelChecks.check(
                acquired.get() - givenUp.get() == listed,
                "the locks listed are exactly those taken and not counted as given up (" + acquired + " taken, "
                        + givenUp + " given up, " + listed + " listed)");
        ModelChecks.check(listed <= stillTaken, "a lock listed is still taken");
    }

    private static String storeKey(int key) {
        return "key-" + key;
    }

    @Test
    void eachLockIsGivenUpOnceUnderModelChecking() {
        modelChecking().check(getClass());
    }

    @Test
    void eachLockIsGivenUpOnceUnderStress() {
        ModelChecks.stress()
                .threads(THREADS)
                .sequentialSpecification(Holders.class)
                .check(getClass());
    }

    private static ModelCheckingOptions modelChecking() {
        // Two operations a thread: a race of release and shutdown needs two threads inside, not long scenarios.
        return ModelChecks.modelChecking().threads(THREADS).actorsPerThread(2).sequentialSpecification(Holders.class);
    }

    /** The sequential specification: which thread's lock holds each key's gate. */
    public static final class Holders {
        private final int[] holder = {-1, -1};

        public boolean acquire(int key, int me) {
            if (holder[key] != -1) {
                return false;
            }
            holder[key] = me;
            return true;
        }

        public void release(int key, int me) {
            if (holder[key] == me) {
                holder[key] = -1;
            }
        }

        /** An abandoned lock keeps its gate until released: nothing changes for the takers. */
        public void shutDown() {}
    }
}
