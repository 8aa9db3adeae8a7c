package dev.baton.tck;

import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store contract suite: every rule a {@link LockStore} must keep (see the rules on {@link LockStore}),
 * checked against the store's real backend. A store author extends it with one factory method:
 *
 * <pre>{@code
 * class MapLockStoreContractTest extends LockStoreContract {
 *     private static final MapLockStore.Backend BACKEND = new MapLockStore.Backend();
 *
 *     @Override
 *     protected LockStore createStore() {
 *         return new MapLockStore(BACKEND); // a new instance on the same backend each time
 *     }
 * }
 * }</pre>
 *
 * <p>The rules are grouped in {@link Nested} classes, each carrying a tag of {@link ContractTags}, so a
 * subset runs with {@code -Dgroups=...}; each group's rules are in a file of its own ({@link AcquireRules},
 * {@link KeyRules}, ...). Optional capabilities ({@link StoreCapability}) are tested only
 * when {@link LockStore#capabilities()} declares them; the others are reported as skipped.
 *
 * <p>Every test draws its keys from a random prefix of its own, so the suite runs against a backend
 * that holds earlier data (a database that is not emptied between runs) and leaves only keys that
 * expire within a minute. Waits are bounded; every bound and margin is multiplied by
 * {@link #timeFactor()} ({@value #TIME_FACTOR_PROPERTY}, default 1). No test asserts that an operation
 * is fast. Start and stop the backend in the subclass ({@code @BeforeAll}/{@code @AfterAll}).
 *
 * <p>A subclass whose selected rules were all skipped (none passed or failed) fails after its last rule:
 * a run that checked nothing is not a pass.
 */
@Tag(ContractTags.STORE_CONTRACT)
@ExtendWith(RulesRanGuard.class) // a class whose selected rules were all skipped fails instead of passing
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a guard against a store that hangs, far above every bound
public abstract class LockStoreContract {

    /** The system property that multiplies every wait bound and margin of the suite: {@value}. */
    public static final String TIME_FACTOR_PROPERTY = TimeFactor.PROPERTY;

    /** The store the running rule works on; the groups below reach it through {@link ContractRules#underTest()}. */
    private final StoreUnderTest underTest = new StoreUnderTest();

    /**
     * Creates a new store instance. Each call must return a new instance on the <em>same</em> backend,
     * as an application restart would; the suite closes every instance it creates.
     *
     * @return a new store
     */
    protected abstract LockStore createStore();

    /**
     * How much slower than a developer's machine this one is: every wait bound and every margin past an
     * expiry is multiplied by it. Defaults to the system property {@value #TIME_FACTOR_PROPERTY}, else 1.
     *
     * @return the factor, positive
     */
    protected double timeFactor() {
        return TimeFactor.get();
    }

    @BeforeEach
    final void openStore(TestInfo info) {
        underTest.open(this, info.getTestMethod().map(Method::getName).orElse("test"));
    }

    @AfterEach
    final void closeStores() {
        underTest.closeAll();
    }

    // ---------------------------------------------------------------- the groups of rules

    /**
     * Taking a key: free, live, released and expired keys; what a refusal reports.
     * The rules are in {@link AcquireRules}.
     */
    @Nested
    @Tag(ContractTags.ACQUIRE)
    public class Acquire extends AcquireRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Exactly one winner among threads that really race, on free and expired keys, on one key or many.
     * The rules are in {@link AtomicityRules}.
     */
    @Nested
    @Tag(ContractTags.CONCURRENCY)
    public class Atomicity extends AtomicityRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Fencing tokens per key strictly increase, across release and expiry.
     * The rules are in {@link FencingRules}.
     */
    @Nested
    @Tag(ContractTags.FENCING)
    public class Fencing extends FencingRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * A new store instance on the same backend (an application restart). Only for {@code PERSISTENT} stores.
     * The rules are in {@link PersistenceRules}.
     */
    @Nested
    @Tag(ContractTags.PERSISTENCE)
    public class Persistence extends PersistenceRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Locks that end with the connection of the instance that took them ({@link StoreCapability#ENDS_WITH_CONNECTION}),
     * in place of {@link Persistence}. Only for stores that declare it.
     * The rules are in {@link EndsWithConnectionRules}.
     */
    @Nested
    @Tag(ContractTags.ENDS_WITH_CONNECTION)
    public class EndsWithConnection extends EndsWithConnectionRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Renewal is one compare-and-set: only the holder's live lock is extended; nothing is revived.
     * The rules are in {@link RenewRules}.
     */
    @Nested
    @Tag(ContractTags.RENEW)
    public class Renew extends RenewRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Release is one compare-and-set: only the holder's live lock is freed, never a successor's.
     * The rules are in {@link ReleaseRules}.
     */
    @Nested
    @Tag(ContractTags.RELEASE)
    public class Release extends ReleaseRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Keys are kept exactly apart, through every operation.
     * The rules are in {@link KeyRules}.
     */
    @Nested
    @Tag(ContractTags.KEYS)
    public class Keys extends KeyRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Ttls from 1 ms to 30 days and up to the maximum duration work.
     * The rules are in {@link DurationRules}.
     */
    @Nested
    @Tag(ContractTags.DURATIONS)
    public class Durations extends DurationRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Owners are compared exactly, up to the longest owner.
     * The rules are in {@link OwnerRules}.
     */
    @Nested
    @Tag(ContractTags.OWNERS)
    public class Owners extends OwnerRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * A closed store instance refuses to work: every operation fails with a {@link dev.baton.LockStoreException}.
     * The rules are in {@link CloseRules}.
     */
    @Nested
    @Tag(ContractTags.CLOSE)
    public class Close extends CloseRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Inspection ({@link StoreCapability#INSPECT}): a key's live holder, reported exactly; nothing changed by it.
     * The rules are in {@link InspectionRules}.
     */
    @Nested
    @Tag(ContractTags.INSPECT)
    public class Inspection extends InspectionRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Waiting turns ({@link StoreCapability#WAITING_TURNS}): a key's turn belongs to its longest waiter.
     * The rules are in {@link WaitingTurnRules}.
     */
    @Nested
    @Tag(ContractTags.TURNS)
    public class WaitingTurns extends WaitingTurnRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Shared leases ({@link StoreCapability#SHARED_LOCKS}): permits up to a limit and read locks, never beside an
     * exclusive lease, each with its own token, renewed, released and expiring alone, under the key's turns.
     * The rules are in {@link SharedLockRules}.
     */
    @Nested
    @Tag(ContractTags.SHARED)
    public class SharedLocks extends SharedLockRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Hand-over ({@link StoreCapability#HAND_OVER}): a held key passes to the next acquisition in one atomic step,
     * unless another waiter's turn keeps it. The rules are in {@link HandOverRules}.
     */
    @Nested
    @Tag(ContractTags.HAND_OVER)
    public class HandOver extends HandOverRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }

    /**
     * Optional capabilities, each tested only when the store declares it.
     * The rules are in {@link CapabilityRules}.
     */
    @Nested
    @Tag(ContractTags.CAPABILITIES)
    public class Capabilities extends CapabilityRules {
        @Override
        StoreUnderTest underTest() {
            return LockStoreContract.this.underTest;
        }
    }
}
