package dev.baton.impl.engine;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.ModelChecks;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.lang.reflect.Field;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The renewal bookkeeping of held locks ({@link LockRenewal}'s one renewal slot per lock, {@link Renewals}'
 * batches and {@code Lock.extend}), model-checked with Lincheck: the clock's thread moves time and runs the renewals
 * that fall due (a batch of every lock of the same ttl due soon, one store call; the store calls run on that thread
 * here), while holders extend their locks to another ttl. A renewal in flight carries the old ttl; if it reached the
 * store after an extension, it would cut the lease back. What is checked: never two renewal calls of one lock at
 * once, and at every quiescent point the lease the store last set for each held lock has the ttl the lock believes
 * it has ({@link #theStoreHasEveryLocksTtl}). Not linearizable (a batch renews several locks at once), so no
 * sequential specification: the invariants are the check.
 */
public class RenewalSlotLincheckTest {

    private static final int LOCKS = 2;
    private static final long TTL = 3_000;

    private final LockTimersLincheckTest.ManualTime time = new LockTimersLincheckTest.ManualTime();
    /** The ttl of the last lease the store set, per lock. */
    private final long[] storeTtl = new long[LOCKS];
    /** Renewal calls of each lock in the store now. */
    private final int[] inStore = new int[LOCKS];

    private volatile boolean overlapped;
    private final HeldLock[] locks = new HeldLock[LOCKS];
    private final LockEngine engine;
    /** The store the engine renews through, watched. */
    final LockStore store;

    public RenewalSlotLincheckTest() {
        MemoryLockStore memory = new MemoryLockStore(time::nanoTime);
        store = new ForwardingLockStore(memory) {
            @Override
            public boolean renew(Renewal renewal) {
                int lock = index(renewal.key());
                enter(lock);
                try {
                    storeTtl[lock] = renewal.ttlMillis();
                    return super.renew(renewal);
                } finally {
                    inStore[lock]--;
                }
            }

            @Override
            public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
                leases.forEach(lease -> enter(index(lease.key())));
                try {
                    leases.forEach(lease -> storeTtl[index(lease.key())] = ttlMillis);
                    return super.renewAll(leases, ttlMillis, maxWaitMillis);
                } finally {
                    leases.forEach(lease -> inStore[index(lease.key())]--);
                }
            }
        };
        ManagerSettings settings = new ManagerSettings("", Optional.empty(), TTL, 1_000, "", 0, false);
        engine = new LockEngine(settings, store, time, Runnable::run, LockListener.NONE, EngineMetrics.NONE);
        KeyGates gates = gatesOf(engine);
        for (int i = 0; i < LOCKS; i++) {
            String key = key(i);
            var acquired = memory.acquire(Acquisition.of(key, "owner", TTL, 0));
            KeyGate gate = gates.enter(key);
            gate.tryTake();
            locks[i] = engine.holding(new HeldLock(
                    engine, gate, key, key, "owner", acquired.fencingToken(), TTL, time.nanoTime(), null, false));
            storeTtl[i] = TTL;
        }
    }

    /** The clock moves a second: the renewals due run (interval: a third of a 3 s lease). */
    @Operation
    public void tick() {
        time.advance(1_000);
    }

    /** A holder sets its lock's lease to another ttl ({@code Lock.extend}). */
    @Operation
    public void extend(
            @Param(gen = IntGen.class, conf = "0:1") int lock,
            @Param(gen = IntGen.class, conf = "1:2") int ttlSeconds) {
        try {
            extendLease(locks[lock], ttlSeconds * 3_000L);
        } catch (RuntimeException e) {
            // lost meanwhile: nothing to check for it
        }
    }

    void extendLease(HeldLock lock, long ttlMillis) {
        engine.renewals().extend(lock, ttlMillis);
    }

    @Validate
    public void theStoreHasEveryLocksTtl() {
        ModelChecks.check(!overlapped, "one renewal call of a lock at a time");
        for (int i = 0; i < LOCKS; i++) {
            HeldLock lock = locks[i];
            if (lock.renewable()) {
                ModelChecks.check(
                        storeTtl[i] == lock.ttlMillis(),
                        "lock " + i + " believes its lease is " + lock.ttlMillis() + " ms, the store last set "
                                + storeTtl[i] + " ms");
            }
        }
    }

    /** The engine's gates, whose held locks its renewals batch: taken as an acquisition takes them, by the gate. */
    private static KeyGates gatesOf(LockEngine engine) {
        try {
            Field field = LockEngine.class.getDeclaredField("gates");
            field.setAccessible(true);
            return (KeyGates) field.get(engine);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private void enter(int lock) {
        if (inStore[lock]++ != 0) {
            overlapped = true;
        }
    }

    private static String key(int lock) {
        return "renewed-" + lock;
    }

    private static int index(String key) {
        return key.charAt(key.length() - 1) - '0';
    }

    @Test
    void theCheckCatchesAnExtensionThatDoesNotTakeTheRenewalSlot() {
        ModelChecks.assertCaught(modelChecking(), OnExtensionOutsideTheSlot.class, "the store last set");
    }

    /** This test with an extension that renews in the store without the slot, as if a batch could not be in flight. */
    public static class OnExtensionOutsideTheSlot extends RenewalSlotLincheckTest {
        @Override
        void extendLease(HeldLock lock, long ttlMillis) {
            if (store.renew(new Renewal(lock.storeKey(), lock.owner(), ttlMillis, 1_000))) {
                lock.ttlMillis(ttlMillis);
            }
        }
    }

    @Test
    void theStoreKeepsTheTtlEachLockBelievesUnderModelChecking() {
        modelChecking().check(getClass());
    }

    @Test
    void theStoreKeepsTheTtlEachLockBelievesUnderStress() {
        ModelChecks.stress().check(getClass());
    }

    static ModelCheckingOptions modelChecking() {
        // Half the common budget: each run makes an engine, and an extension's wait for the slot is long to explore.
        // The clock's thread runs loops of the JDK's (a hash map's traversal, a key's check) while an extension
        // waits for the renewal slot: switch threads only in loops longer than those, and let the wait loop long
        // enough for the batch to finish, or Lincheck takes the two for a livelock.
        return ModelChecks.modelChecking()
                .iterations(2)
                .invocationsPerIteration(50)
                .actorsPerThread(2)
                .loopIterationsBeforeThreadSwitch(50)
                .loopBound(300);
    }
}
