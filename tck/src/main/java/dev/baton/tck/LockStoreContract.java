package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.lang.reflect.Method;
import java.text.Normalizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
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
 * subset runs with {@code -Dgroups=...}. Optional capabilities ({@link StoreCapability}) are tested only
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

    /** A lease that outlives every test, in ms. */
    static final long LONG_TTL = 60_000;
    /** A lease that runs out within a test, in ms. */
    static final long SHORT_TTL = 50;
    /** 30 days in ms: more than an {@code int} holds. */
    static final long THIRTY_DAYS = 2_592_000_000L;
    /** Threads racing for one key. */
    static final int RACERS = 16;
    /** Rounds of each race. */
    static final int ROUNDS = 200;
    /** The base bound of every wait, before {@link #timeFactor()}. */
    static final long BOUND_MILLIS = 10_000;

    private final List<LockStore> opened = new ArrayList<>();
    private final String runId = ContractSupport.randomHex(6);
    private String testName = "test";
    private LockStore store;
    private Set<StoreCapability> capabilities;

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
        testName = info.getTestMethod().map(Method::getName).orElse("test");
        store = newStore();
        assertThat(store.capabilities())
                .as("capabilities() of %s", store)
                .isNotNull()
                .doesNotContainNull();
        capabilities = Set.copyOf(store.capabilities());
        assertThat(capabilities.contains(StoreCapability.PERSISTENT)
                        && capabilities.contains(StoreCapability.ENDS_WITH_CONNECTION))
                .as(
                        "%s declares both PERSISTENT and ENDS_WITH_CONNECTION: locks either outlive the instance or end with it",
                        store)
                .isFalse();
    }

    @AfterEach
    final void closeStores() {
        Set<LockStore> closed = Collections.newSetFromMap(new IdentityHashMap<>());
        RuntimeException failure = null;
        for (LockStore each : opened) {
            if (closed.add(each)) {
                try {
                    each.close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    }
                }
            }
        }
        opened.clear();
        if (failure != null) {
            throw failure;
        }
    }

    // ---------------------------------------------------------------- helpers

    private LockStore newStore() {
        LockStore created = createStore();
        assertThat(created).as("createStore() must return a store").isNotNull();
        opened.add(created);
        return created;
    }

    /** Closes {@code old} (an application stop) and opens a new instance on the same backend. */
    private LockStore restart(LockStore old) {
        old.close();
        opened.removeIf(each -> each == old);
        return newStore();
    }

    /** A key of this test, apart from every other test's and run's. */
    private String key(String name) {
        return "tck:" + runId + ":" + testName + ":" + name;
    }

    /** A key of exactly {@code length} chars: this test's prefix padded with {@code fill}, then {@code last}. */
    private String keyOfLength(int length, String fill, String last) {
        StringBuilder key = new StringBuilder(key(""));
        while (key.length() + fill.length() + last.length() <= length) {
            key.append(fill);
        }
        while (key.length() + last.length() < length) {
            key.append('x');
        }
        return key.append(last).toString();
    }

    private Duration scaled(long millis) {
        return TimeFactor.scale(Duration.ofMillis(millis), timeFactor());
    }

    private ConditionFactory waiting() {
        return Awaitility.await()
                .pollInSameThread()
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5))
                .atMost(scaled(BOUND_MILLIS));
    }

    private void assumeCapability(StoreCapability capability) {
        assumeThat(capabilities).as("the store declares %s", capability).contains(capability);
    }

    private boolean declares(StoreCapability capability) {
        return capabilities.contains(capability);
    }

    /** Acquires and asserts it worked; returns the token. */
    private long acquired(LockStore on, String key, String owner, long ttl) {
        AcquireResult result = on.acquire(key, owner, ttl);
        assertThat(result.isAcquired())
                .as("acquire(%s, ttl %d ms) must succeed", describe(key), ttl)
                .isTrue();
        assertThat(result.fencingToken()).as("fencing token").isPositive();
        return result.fencingToken();
    }

    private long acquired(String key, String owner, long ttl) {
        return acquired(store, key, owner, ttl);
    }

    /** Asserts that a new owner cannot take {@code key} now. */
    private void assertHeld(LockStore on, String key, String why) {
        AcquireResult result = on.acquire(key, newOwner(), LONG_TTL);
        assertThat(result.isAcquired())
                .as("%s: %s must still be held, but another owner took it with %s", why, describe(key), result)
                .isFalse();
    }

    private void assertHeld(String key, String why) {
        assertHeld(store, key, why);
    }

    /** A new owner's refused acquire of the held {@code key}: the remaining lease it reports. */
    private long remainingLease(String key) {
        AcquireResult refused = store.acquire(key, newOwner(), LONG_TTL);
        assertThat(refused.isAcquired()).as("%s is held", describe(key)).isFalse();
        assertThat(refused.remainingLeaseMillis())
                .as("REMAINING_LEASE is declared: a refusal reports the holder's remaining lease")
                .isPresent();
        return refused.remainingLeaseMillis().getAsLong();
    }

    /** Polls until {@code owner} takes {@code key}, within the bound; returns the token. */
    private long awaitAcquired(LockStore on, String key, String owner, long ttl) {
        AtomicReference<AcquireResult> result = new AtomicReference<>();
        waiting().alias("acquire " + describe(key) + " once its lock is over").until(() -> {
            result.set(on.acquire(key, owner, ttl));
            return result.get().isAcquired();
        });
        assertThat(result.get().fencingToken()).as("fencing token").isPositive();
        return result.get().fencingToken();
    }

    private long awaitAcquired(String key, String owner, long ttl) {
        return awaitAcquired(store, key, owner, ttl);
    }

    /** Acquires {@code key} with {@link #SHORT_TTL} and idles, untouched, until the lease is surely over. */
    private long acquiredAndExpired(String key, String owner) {
        long token = acquired(key, owner, SHORT_TTL);
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));
        return token;
    }

    /** Asserts that {@code a} and {@code b} are two locks, through every operation. */
    private void assertDistinct(String a, String b) {
        String ownerA = newOwner();
        String ownerB = newOwner();
        acquired(a, ownerA, LONG_TTL);
        AcquireResult second = store.acquire(b, ownerB, LONG_TTL);
        assertThat(second.isAcquired())
                .as("%s and %s are two locks: with the first held, the second must be free", describe(a), describe(b))
                .isTrue();
        assertThat(store.renew(b, ownerA, LONG_TTL))
                .as("renew of %s by the owner of %s", describe(b), describe(a))
                .isFalse();
        assertThat(store.renew(a, ownerB, LONG_TTL))
                .as("renew of %s by the owner of %s", describe(a), describe(b))
                .isFalse();
        assertThat(store.release(b, ownerA))
                .as("release of %s by the owner of %s", describe(b), describe(a))
                .isFalse();
        assertThat(store.release(a, ownerB))
                .as("release of %s by the owner of %s", describe(a), describe(b))
                .isFalse();
        assertThat(store.renew(a, ownerA, LONG_TTL))
                .as("renew of %s by its holder", describe(a))
                .isTrue();
        assertThat(store.release(a, ownerA))
                .as("release of %s by its holder", describe(a))
                .isTrue();
        assertHeld(b, "after " + describe(a) + " was released");
        assertThat(store.release(b, ownerB))
                .as("release of %s by its holder", describe(b))
                .isTrue();
    }

    /** Asserts that all {@code keys} are different locks: all can be held at once, each released on its own. */
    private void assertAllDistinct(List<String> keys) {
        assertThat(new HashSet<>(keys))
                .as("the test's keys are distinct Java strings")
                .hasSameSizeAs(keys);
        List<String> owners = new ArrayList<>();
        for (String key : keys) {
            String owner = newOwner();
            owners.add(owner);
            AcquireResult result = store.acquire(key, owner, LONG_TTL);
            assertThat(result.isAcquired())
                    .as(
                            "%s is a lock of its own, apart from %s",
                            describe(key),
                            keys.stream()
                                    .filter(other -> !other.equals(key))
                                    .map(ContractSupport::describe)
                                    .toList())
                    .isTrue();
        }
        for (int i = 0; i < keys.size(); i++) {
            assertHeld(keys.get(i), "while every key is held");
            assertThat(store.renew(keys.get(i), owners.get(i), LONG_TTL))
                    .as("renew of %s by its holder", describe(keys.get(i)))
                    .isTrue();
            assertThat(store.release(keys.get(i), owners.get(i)))
                    .as("release of %s by its holder", describe(keys.get(i)))
                    .isTrue();
        }
    }

    /** Asserts that acquire, renew and release all reject {@code key} with an {@link IllegalArgumentException}. */
    private void assertKeyRejected(String key) {
        String owner = newOwner();
        assertRejected(() -> store.acquire(key, owner, LONG_TTL), "acquire", describe(key));
        assertRejected(() -> store.renew(key, owner, LONG_TTL), "renew", describe(key));
        assertRejected(() -> store.release(key, owner), "release", describe(key));
    }

    private static void assertRejected(ThrowingCallable call, String operation, String what) {
        assertThatThrownBy(call)
                .as("%s with %s must be rejected", operation, what)
                .isInstanceOf(IllegalArgumentException.class)
                .message()
                .as("the message of the rejection of %s", what)
                .isNotBlank();
    }

    private static void assertStrictlyIncreasing(List<Long> tokens, String what) {
        for (int i = 1; i < tokens.size(); i++) {
            if (tokens.get(i) <= tokens.get(i - 1)) {
                throw new AssertionError("fencing tokens must strictly increase " + what + ", but token #" + (i + 1)
                        + " was " + tokens.get(i) + " after " + tokens.get(i - 1) + "; tokens around it: "
                        + tokens.subList(Math.max(0, i - 5), Math.min(tokens.size(), i + 5)));
            }
        }
    }

    // ---------------------------------------------------------------- the rules

    /** Taking a key: free, live, released and expired keys; what a refusal reports. */
    @Nested
    @Tag(ContractTags.ACQUIRE)
    public class Acquire {

        @Test
        @TckRule(id = "S-3.1-01", spec = "spec-store-acquire-free-key")
        void freeKeyIsTakenWithAPositiveToken() {
            AcquireResult result = store.acquire(key("free"), newOwner(), LONG_TTL);

            assertThat(result.isAcquired()).as("a free key is taken").isTrue();
            assertThat(result.fencingToken())
                    .as("the fencing token of %s", result)
                    .isPositive();
        }

        @Test
        @TckRule(id = "S-3.1-02", spec = "spec-store-acquire-live-key-refused")
        void liveKeyIsNotTakenByAnotherOwner() {
            String key = key("live");
            String holder = newOwner();
            acquired(key, holder, LONG_TTL);

            for (int i = 0; i < 3; i++) {
                assertHeld(key, "attempt " + (i + 1));
            }
            assertThat(store.release(key, holder))
                    .as("the first holder still holds it")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-3.1-03", spec = "spec-store-acquire-live-key-refused")
        void liveKeyIsNotTakenAgainByTheSameOwner() {
            String key = key("live");
            String holder = newOwner();
            acquired(key, holder, LONG_TTL);

            AcquireResult again = store.acquire(key, holder, LONG_TTL);

            assertThat(again.isAcquired())
                    .as("a lock is taken once, also by its own owner: %s", again)
                    .isFalse();
            assertThat(store.release(key, holder))
                    .as("store.release(key, holder) must answer true")
                    .isTrue();
            assertThat(store.release(key, holder))
                    .as("there was only one lock to release")
                    .isFalse();
        }

        @Test
        @TckRule(id = "S-3.1-04", spec = "spec-store-acquire-released-key")
        void releasedKeyIsTakenAgainWithALargerToken() {
            String key = key("released");
            String first = newOwner();
            long firstToken = acquired(key, first, LONG_TTL);
            assertThat(store.release(key, first))
                    .as("store.release(key, first) must answer true")
                    .isTrue();

            long secondToken = acquired(key, newOwner(), LONG_TTL);

            assertThat(secondToken).as("the token after a release").isGreaterThan(firstToken);
        }

        @Test
        @TckRule(id = "S-3.1-05", spec = "spec-store-acquire-live-key-refused")
        void refusedAcquireChangesNothing() {
            String key = key("held");
            String holder = newOwner();
            long ttl = scaled(1_000).toMillis();
            long token = acquired(key, holder, ttl);

            for (int i = 0; i < 3; i++) {
                assertThat(store.acquire(key, newOwner(), LONG_TTL).isAcquired())
                        .as("acquire of a held key")
                        .isFalse();
            }

            assertThat(awaitAcquired(key, newOwner(), LONG_TTL))
                    .as("the holder's lease ran out at its own ttl, not extended by refused callers")
                    .isGreaterThan(token);
            assertThat(store.release(key, holder))
                    .as("the former holder's lease is over")
                    .isFalse();
        }

        @Test
        @TckRule(id = "S-2.2-01", spec = "spec-model-expired-lock-absent")
        void expiredKeyIsTakenAgainWithALargerToken() {
            String key = key("expired");
            long firstToken = acquiredAndExpired(key, newOwner());

            long secondToken = awaitAcquired(key, newOwner(), LONG_TTL);

            assertThat(secondToken).as("the token after an expiry").isGreaterThan(firstToken);
        }

        @Test
        @TckRule(id = "S-2.2-02", spec = "spec-model-expired-lock-absent")
        void expiredKeyIsTakenAgainAfterItsRecordWasTouched() {
            String key = key("expired");
            String first = newOwner();
            long firstToken = acquiredAndExpired(key, first);
            // Failed calls on the dead lock: a store may delete its record on these paths.
            assertThat(store.renew(key, first, LONG_TTL))
                    .as("store.renew(key, first, LONG_TTL) must answer false")
                    .isFalse();
            assertThat(store.release(key, first))
                    .as("store.release(key, first) must answer false")
                    .isFalse();

            long secondToken = awaitAcquired(key, newOwner(), LONG_TTL);

            assertThat(secondToken).as("the token after an expiry").isGreaterThan(firstToken);
        }

        @Test
        @TckRule(id = "S-2.2-03", spec = "spec-model-expired-lock-absent")
        void expiredKeyIsTakenAgainEvenByItsFormerOwner() {
            String key = key("expired");
            String owner = newOwner();
            long firstToken = acquiredAndExpired(key, owner);

            long secondToken = awaitAcquired(key, owner, LONG_TTL);

            assertThat(secondToken)
                    .as("an expired lock does not exist, whoever held it")
                    .isGreaterThan(firstToken);
        }

        @Test
        @TckRule(id = "S-3.1-06", spec = "spec-store-acquire-remaining-lease")
        @Tag(ContractTags.CAPABILITIES)
        void notAcquiredReportsTheHoldersRemainingLease() {
            assumeCapability(StoreCapability.REMAINING_LEASE);
            String key = key("held");
            long holderTtl = LONG_TTL / 2;
            acquired(key, newOwner(), holderTtl);

            long remaining = remainingLease(key);

            assertThat(remaining)
                    .as("the holder's remaining lease, at most the holder's ttl (not the caller's)")
                    .isPositive()
                    .isLessThanOrEqualTo(holderTtl);
        }
    }

    /** Exactly one winner among threads that really race, on free and expired keys, on one key or many. */
    @Nested
    @Tag(ContractTags.CONCURRENCY)
    public class Atomicity {

        @Test
        @TckRule(id = "S-3.1-07", spec = "spec-store-acquire-atomic")
        void exactlyOneOfManyConcurrentCallersTakesAFreeKey() throws Exception {
            List<String> keys = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                keys.add(key("free-" + round));
            }

            AcquireResult[][] results = raceOnePerRound(keys);

            assertOneWinnerPerRound(keys, results, new long[ROUNDS]);
        }

        @Test
        @TckRule(id = "S-3.1-08", spec = "spec-store-acquire-atomic")
        void exactlyOneOfManyConcurrentCallersTakesAnExpiredKey() throws Exception {
            List<String> keys = new ArrayList<>();
            long[] expiredTokens = new long[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                keys.add(key("expired-" + round));
                expiredTokens[round] = acquired(keys.get(round), newOwner(), 1 + round % 10);
            }
            pause(scaled(200));

            AcquireResult[][] results = raceOnePerRound(keys);

            assertOneWinnerPerRound(keys, results, expiredTokens);
        }

        @Test
        @TckRule(id = "S-3.1-09", spec = "spec-store-acquire-atomic")
        void concurrentCallersOnManyKeysGetExactlyOneWinnerPerKey() throws Exception {
            int keysPerRound = 8;
            int rounds = ROUNDS / 4;
            String[][] keys = new String[rounds][keysPerRound];
            AcquireResult[][][] results = new AcquireResult[rounds][keysPerRound][RACERS];
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < keysPerRound; k++) {
                    keys[round][k] = key(round + "-" + k);
                }
            }

            ContractSupport.race(RACERS, rounds, scaled(6 * BOUND_MILLIS), (round, racer) -> {
                for (int i = 0; i < keysPerRound; i++) {
                    int k = (racer + i) % keysPerRound;
                    results[round][k][racer] = store.acquire(keys[round][k], newOwner(), LONG_TTL);
                }
            });

            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < keysPerRound; k++) {
                    long winners = Arrays.stream(results[round][k])
                            .filter(AcquireResult::isAcquired)
                            .count();
                    assertThat(winners)
                            .as(
                                    "winners of %s in round %d, %d racers on %d keys at once",
                                    describe(keys[round][k]), round, RACERS, keysPerRound)
                            .isOne();
                }
            }
        }

        @Test
        @TckRule(id = "S-3.1-10", spec = "spec-store-acquire-atomic")
        void concurrentAcquireAndReleaseKeepsMutualExclusionAndNeverRepeatsAToken() throws Exception {
            String key = key("hot");
            int wanted = 500;
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger wins = new AtomicInteger();
            List<Long> tokensInOrder = new CopyOnWriteArrayList<>();
            ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

            ContractSupport.race(RACERS, 1, scaled(6 * BOUND_MILLIS), (round, racer) -> {
                while (wins.get() < wanted) {
                    String owner = newOwner();
                    AcquireResult result = store.acquire(key, owner, LONG_TTL);
                    if (!result.isAcquired()) {
                        LockSupport.parkNanos(20_000);
                        continue;
                    }
                    if (inside.incrementAndGet() != 1) {
                        violations.add(
                                "token " + result.fencingToken() + " was granted while another holder was inside");
                    }
                    tokensInOrder.add(result.fencingToken());
                    wins.incrementAndGet();
                    Thread.yield();
                    inside.decrementAndGet();
                    if (!store.release(key, owner)) {
                        violations.add("the holder of token " + result.fencingToken() + " could not release");
                    }
                }
            });

            assertThat(violations)
                    .as("mutual exclusion of %d racers on one key", RACERS)
                    .isEmpty();
            assertThat(new HashSet<>(tokensInOrder))
                    .as("distinct tokens among %d acquisitions", tokensInOrder.size())
                    .hasSameSizeAs(tokensInOrder);
            assertStrictlyIncreasing(tokensInOrder, "in the order the holders took the key");
        }

        /** Races all racers on {@code keys.get(round)} in each round; returns results[round][racer]. */
        private AcquireResult[][] raceOnePerRound(List<String> keys) throws Exception {
            AcquireResult[][] results = new AcquireResult[keys.size()][RACERS];
            ContractSupport.race(
                    RACERS,
                    keys.size(),
                    scaled(6 * BOUND_MILLIS),
                    (round, racer) -> results[round][racer] = store.acquire(keys.get(round), newOwner(), LONG_TTL));
            return results;
        }

        private void assertOneWinnerPerRound(List<String> keys, AcquireResult[][] results, long[] earlierTokens) {
            for (int round = 0; round < keys.size(); round++) {
                List<AcquireResult> winners = Arrays.stream(results[round])
                        .filter(AcquireResult::isAcquired)
                        .toList();
                assertThat(winners)
                        .as("winners among %d racers on %s (round %d)", RACERS, describe(keys.get(round)), round)
                        .hasSize(1);
                assertThat(winners.get(0).fencingToken())
                        .as("the winner's token")
                        .isGreaterThan(earlierTokens[round]);
                assertHeld(keys.get(round), "after the race of round " + round);
            }
        }
    }

    /** Fencing tokens per key strictly increase, across release and expiry. */
    @Nested
    @Tag(ContractTags.FENCING)
    public class Fencing {

        @Test
        @TckRule(id = "S-2.4-01", spec = "spec-model-token-increase")
        void tokensStrictlyIncreaseAcrossAThousandMixedCycles() {
            String key = key("cycles");
            List<Long> tokens = new ArrayList<>();
            for (int cycle = 0; cycle < 1_000; cycle++) {
                String owner = newOwner();
                switch (cycle % 4) {
                    case 0 -> { // acquire, release
                        tokens.add(awaitAcquired(key, owner, LONG_TTL));
                        assertThat(store.release(key, owner))
                                .as("store.release(key, owner) must answer true")
                                .isTrue();
                    }
                    case 1 -> // acquire, let expire: the next cycle waits for it
                        tokens.add(awaitAcquired(key, owner, 1));
                    case 2 -> { // acquire, renew, release
                        tokens.add(awaitAcquired(key, owner, LONG_TTL));
                        assertThat(store.renew(key, owner, LONG_TTL))
                                .as("store.renew(key, owner, LONG_TTL) must answer true")
                                .isTrue();
                        assertThat(store.release(key, owner))
                                .as("store.release(key, owner) must answer true")
                                .isTrue();
                    }
                    default -> { // acquire; others fail to take, renew and release it; release
                        tokens.add(awaitAcquired(key, owner, LONG_TTL));
                        String other = newOwner();
                        assertThat(store.acquire(key, other, LONG_TTL).isAcquired())
                                .as("store.acquire(key, other, LONG_TTL).isAcquired() must answer false")
                                .isFalse();
                        assertThat(store.renew(key, other, LONG_TTL))
                                .as("store.renew(key, other, LONG_TTL) must answer false")
                                .isFalse();
                        assertThat(store.release(key, other))
                                .as("store.release(key, other) must answer false")
                                .isFalse();
                        assertThat(store.release(key, owner))
                                .as("store.release(key, owner) must answer true")
                                .isTrue();
                    }
                }
            }
            assertStrictlyIncreasing(tokens, "across 1,000 acquire/release/expire cycles");
        }

        @Test
        @TckRule(id = "S-2.4-02", spec = "spec-model-token-increase")
        void releaseNeverResetsTheTokenCounter() {
            String key = key("released");
            List<Long> tokens = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String owner = newOwner();
                tokens.add(acquired(key, owner, LONG_TTL));
                assertThat(store.release(key, owner))
                        .as("store.release(key, owner) must answer true")
                        .isTrue();
            }
            assertStrictlyIncreasing(tokens, "across releases");
        }

        @Test
        @TckRule(id = "S-2.4-03", spec = "spec-model-token-increase")
        void expiryNeverResetsTheTokenCounter() {
            String key = key("expired");
            List<Long> tokens = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                tokens.add(awaitAcquired(key, newOwner(), 1));
            }
            tokens.add(awaitAcquired(key, newOwner(), LONG_TTL));
            assertStrictlyIncreasing(tokens, "across expiries");
        }
    }

    /** A new store instance on the same backend (an application restart). Only for {@code PERSISTENT} stores. */
    @Nested
    @Tag(ContractTags.PERSISTENCE)
    public class Persistence {

        @BeforeEach
        void onlyForPersistentStores() {
            assumeCapability(StoreCapability.PERSISTENT);
        }

        @Test
        @TckRule(id = "S-2.4-04", spec = "spec-model-token-restart")
        void newStoreInstanceContinuesAboveEveryEarlierToken() {
            List<String> keys = List.of(key("released"), key("expired"), key("live"));
            String liveOwner = newOwner();
            long[] tokens = releasedExpiredAndLive(keys, liveOwner);

            LockStore restarted = restart(store);

            assertTokensContinueOnReleasedAndExpired(restarted, keys, tokens);
            assertThat(restarted.release(keys.get(2), liveOwner))
                    .as("restarted.release(keys.get(2), liveOwner) must answer true")
                    .isTrue();
            assertThat(acquired(restarted, keys.get(2), newOwner(), LONG_TTL))
                    .as("token after restart, release by the new instance")
                    .isGreaterThan(tokens[2]);
        }

        @Test
        @TckRule(id = "S-3.1-11", spec = "spec-store-persistent")
        void newStoreInstanceSeesLocksThatAreStillLive() {
            String key = key("live");
            String holder = newOwner();
            acquired(key, holder, LONG_TTL);

            LockStore restarted = restart(store);

            assertHeld(restarted, key, "after a restart");
            assertThat(restarted.renew(key, newOwner(), LONG_TTL))
                    .as("renew by another owner after a restart")
                    .isFalse();
            assertThat(restarted.release(key, newOwner()))
                    .as("release by another owner after a restart")
                    .isFalse();
            assertThat(restarted.renew(key, holder, LONG_TTL))
                    .as("the holder's renew through the new instance")
                    .isTrue();
            assertThat(restarted.release(key, holder))
                    .as("the holder's release through the new instance")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-3.1-12", spec = "spec-store-persistent")
        void racersOnTwoStoreInstancesGetExactlyOneWinner() throws Exception {
            assertOneWinnerAmongRacersOnTwoInstances();
        }
    }

    /**
     * Locks that end with the connection of the instance that took them ({@link StoreCapability#ENDS_WITH_CONNECTION}):
     * tokens outlive the instance, locks do not; only the taking instance renews or releases; the holding
     * instance ends a lock that is not renewed within its ttl. Only for stores that declare it, in place of
     * {@link Persistence}.
     */
    @Nested
    @Tag(ContractTags.ENDS_WITH_CONNECTION)
    public class EndsWithConnection {

        @BeforeEach
        void onlyWhereDeclared() {
            assumeCapability(StoreCapability.ENDS_WITH_CONNECTION);
        }

        @Test
        @TckRule(id = "S-7-01", spec = "spec-store-connection-ends")
        void newStoreInstanceContinuesAboveEveryEarlierTokenAndTakesTheClosedInstancesKeysAtOnce() {
            List<String> keys = List.of(key("released"), key("expired"), key("live"));
            String liveOwner = newOwner();
            long[] tokens = releasedExpiredAndLive(keys, liveOwner);

            LockStore restarted = restart(store);

            assertTokensContinueOnReleasedAndExpired(restarted, keys, tokens);
            // no waiting: the lock ended with the closed instance's connection
            assertThat(acquired(restarted, keys.get(2), newOwner(), LONG_TTL))
                    .as("token of the closed instance's live key, taken at once by the new instance")
                    .isGreaterThan(tokens[2]);
            assertThat(restarted.release(keys.get(2), liveOwner))
                    .as("the former holder's release after the restart")
                    .isFalse();
        }

        @Test
        @TckRule(id = "S-7-02", spec = "spec-store-connection-owning-instance")
        void onlyTheInstanceThatTookALockRenewsOrReleasesIt() {
            String key = key("held");
            String holder = newOwner();
            acquired(key, holder, LONG_TTL);
            LockStore other = newStore();

            assertThat(other.renew(key, holder, LONG_TTL))
                    .as("the holder's renew through another instance")
                    .isFalse();
            assertThat(other.release(key, holder))
                    .as("the holder's release through another instance")
                    .isFalse();
            assertHeld(other, key, "after another instance's renew and release");
            assertThat(store.renew(key, holder, LONG_TTL))
                    .as("the holder's renew through its own instance")
                    .isTrue();
            assertThat(store.release(key, holder))
                    .as("the holder's release through its own instance")
                    .isTrue();
            String taker = newOwner();
            acquired(other, key, taker, LONG_TTL);
            assertThat(other.release(key, taker))
                    .as("other.release(key, taker) must answer true")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-7-03", spec = "spec-store-connection-ttl")
        void aLockNotRenewedWithinItsTtlIsEndedByItsInstanceAndFreeForAnother() {
            String key = key("expiring");
            String holder = newOwner();
            long ttl = scaled(300).toMillis();
            long token = acquired(key, holder, ttl);
            LockStore other = newStore();
            assertHeld(other, key, "within its ttl");

            assertThat(awaitAcquired(other, key, newOwner(), LONG_TTL))
                    .as("token after the holder's ttl passed")
                    .isGreaterThan(token);
            assertThat(store.renew(key, holder, LONG_TTL))
                    .as("the holder's renew after its ttl passed")
                    .isFalse();
            assertThat(store.release(key, holder))
                    .as("the holder's release after its ttl passed")
                    .isFalse();
        }

        @Test
        @TckRule(id = "S-7-04", spec = "spec-store-connection-atomic")
        void racersOnTwoStoreInstancesGetExactlyOneWinner() throws Exception {
            assertOneWinnerAmongRacersOnTwoInstances();
        }
    }

    /** Takes {@code keys} 0 to 2 and leaves them released, expired (ttl 1 ms) and live for {@code liveOwner}: their tokens. */
    private long[] releasedExpiredAndLive(List<String> keys, String liveOwner) {
        long[] tokens = new long[keys.size()];
        String owner = newOwner();
        tokens[0] = acquired(keys.get(0), owner, LONG_TTL);
        assertThat(store.release(keys.get(0), owner))
                .as("store.release(keys.get(0), owner) must answer true")
                .isTrue();
        tokens[1] = acquired(keys.get(1), newOwner(), 1);
        tokens[2] = acquired(keys.get(2), liveOwner, LONG_TTL);
        return tokens;
    }

    /** The released and expired keys of {@link #releasedExpiredAndLive}, taken through a new instance with larger tokens. */
    private void assertTokensContinueOnReleasedAndExpired(LockStore restarted, List<String> keys, long[] tokens) {
        assertThat(acquired(restarted, keys.get(0), newOwner(), LONG_TTL))
                .as("token after restart and release")
                .isGreaterThan(tokens[0]);
        assertThat(awaitAcquired(restarted, keys.get(1), newOwner(), LONG_TTL))
                .as("token after restart and expiry")
                .isGreaterThan(tokens[1]);
    }

    private void assertOneWinnerAmongRacersOnTwoInstances() throws Exception {
        LockStore[] instances = {store, newStore()};
        int rounds = ROUNDS / 2;
        List<String> keys = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            keys.add(key("shared-" + round));
        }
        AcquireResult[][] results = new AcquireResult[rounds][RACERS];

        ContractSupport.race(
                RACERS,
                rounds,
                scaled(6 * BOUND_MILLIS),
                (round, racer) ->
                        results[round][racer] = instances[racer % 2].acquire(keys.get(round), newOwner(), LONG_TTL));

        for (int round = 0; round < rounds; round++) {
            assertThat(Arrays.stream(results[round])
                            .filter(AcquireResult::isAcquired)
                            .count())
                    .as("winners of %s among racers on two store instances", describe(keys.get(round)))
                    .isOne();
        }
    }

    /** Renewal is one compare-and-set: only the holder's live lock is extended; nothing is revived. */
    @Nested
    @Tag(ContractTags.RENEW)
    public class Renew {

        @Test
        @TckRule(id = "S-3.2-01", spec = "spec-store-renew-holder")
        void holdersRenewSucceedsAndTheLockOutlivesItsFirstTtl() {
            String key = key("renewed");
            String holder = newOwner();
            long firstTtl = scaled(500).toMillis();
            acquired(key, holder, firstTtl);

            assertThat(store.renew(key, holder, LONG_TTL))
                    .as("the holder's renew")
                    .isTrue();

            pause(Duration.ofMillis(firstTtl).plus(scaled(200)));
            assertHeld(key, "past its first ttl, after a renewal");
            assertThat(store.release(key, holder))
                    .as("the holder still holds it")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-3.2-02", spec = "spec-store-renew-compare-and-set")
        void anotherOwnersRenewFailsAndChangesNothing() {
            String key = key("held");
            String holder = newOwner();
            long ttl = scaled(1_000).toMillis();
            long token = acquired(key, holder, ttl);

            assertThat(store.renew(key, newOwner(), LONG_TTL))
                    .as("renew by another owner")
                    .isFalse();

            assertHeld(key, "after another owner's failed renew");
            if (declares(StoreCapability.REMAINING_LEASE)) {
                assertThat(remainingLease(key))
                        .as("the lease is the holder's, not extended")
                        .isLessThanOrEqualTo(ttl);
            }
            assertThat(awaitAcquired(key, newOwner(), LONG_TTL))
                    .as("the lock ran out at its own ttl, then was taken")
                    .isGreaterThan(token);
        }

        @Test
        @TckRule(id = "S-3.2-03", spec = "spec-store-renew-compare-and-set")
        void renewAfterExpiryFailsAndDoesNotRevive() {
            String key = key("expired");
            String holder = newOwner();
            long token = acquiredAndExpired(key, holder);

            assertThat(store.renew(key, holder, LONG_TTL))
                    .as("renew of an expired lock")
                    .isFalse();

            AcquireResult next = store.acquire(key, newOwner(), LONG_TTL);
            assertThat(next.isAcquired())
                    .as("the expired lock was not revived by the failed renew: %s", next)
                    .isTrue();
            assertThat(next.fencingToken())
                    .as("the next holder's token, above the expired lock's %s", token)
                    .isGreaterThan(token);
        }

        @Test
        @TckRule(id = "S-3.2-04", spec = "spec-store-renew-compare-and-set")
        void renewAfterReleaseFails() {
            String key = key("released");
            String holder = newOwner();
            acquired(key, holder, LONG_TTL);
            assertThat(store.release(key, holder))
                    .as("store.release(key, holder) must answer true")
                    .isTrue();

            assertThat(store.renew(key, holder, LONG_TTL))
                    .as("renew of a released lock")
                    .isFalse();

            assertThat(store.acquire(key, newOwner(), LONG_TTL).isAcquired())
                    .as("the released lock stays free")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-3.2-05", spec = "spec-store-renew-compare-and-set")
        void renewByAFormerHolderLeavesTheSuccessorAlone() {
            String key = key("taken-over");
            String former = newOwner();
            acquiredAndExpired(key, former);
            String successor = newOwner();
            awaitAcquired(key, successor, LONG_TTL);

            assertThat(store.renew(key, former, LONG_TTL))
                    .as("renew by the former holder")
                    .isFalse();

            assertHeld(key, "after the former holder's renew");
            assertThat(store.release(key, successor))
                    .as("the successor still holds it")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-3.2-06", spec = "spec-store-renew-holder")
        @Tag(ContractTags.CAPABILITIES)
        void renewSetsTheLeaseToTheNewTtl() {
            assumeCapability(StoreCapability.REMAINING_LEASE);
            String key = key("renewed");
            String holder = newOwner();
            acquired(key, holder, 10_000);

            assertThat(store.renew(key, holder, LONG_TTL))
                    .as("store.renew(key, holder, LONG_TTL) must answer true")
                    .isTrue();
            assertThat(remainingLease(key))
                    .as("remaining lease after renewing to 60 s")
                    .isGreaterThan(10_000)
                    .isLessThanOrEqualTo(LONG_TTL);
            assertThat(store.renew(key, holder, 5_000))
                    .as("store.renew(key, holder, 5_000) must answer true")
                    .isTrue();
            assertThat(remainingLease(key))
                    .as("remaining lease after renewing to 5 s")
                    .isLessThanOrEqualTo(5_000);
        }

        @Test
        @TckRule(id = "S-3.4-01", spec = "spec-store-renew-all")
        void renewAllRenewsExactlyTheLeasesStillHeld() {
            assertRenewAllRenewsExactlyTheHeld(1);
            assertThat(store.renewAll(List.of(), LONG_TTL))
                    .as("renewAll of nothing")
                    .isEmpty();
        }

        @Test
        @TckRule(id = "S-3.4-02", spec = "spec-store-renew-all")
        @Tag(ContractTags.CAPABILITIES)
        void batchRenewRenewsExactlyTheLeasesStillHeldAmongMany() {
            assumeCapability(StoreCapability.BATCH_RENEW);
            assertRenewAllRenewsExactlyTheHeld(40);
        }

        /** {@code perKind} keys of each kind: held, someone else's, expired, released, never taken. */
        private void assertRenewAllRenewsExactlyTheHeld(int perKind) {
            long firstTtl = scaled(1_000 + 20L * perKind).toMillis();
            List<Lease> leases = new ArrayList<>();
            Set<Lease> held = new HashSet<>();
            List<Lease> othersLocks = new ArrayList<>();
            List<String> free = new ArrayList<>();
            for (int i = 0; i < perKind; i++) {
                String heldKey = key("held-" + i);
                String owner = newOwner();
                acquired(heldKey, owner, firstTtl);
                leases.add(new Lease(heldKey, owner));
                held.add(new Lease(heldKey, owner));

                String othersKey = key("others-" + i);
                String other = newOwner();
                acquired(othersKey, other, LONG_TTL);
                leases.add(new Lease(othersKey, newOwner()));
                // The held key again, with a stale owner: only the real holder's lease counts as renewed.
                leases.add(new Lease(heldKey, newOwner()));
                othersLocks.add(new Lease(othersKey, other));

                String expiredKey = key("expired-" + i);
                String expiredOwner = newOwner();
                acquired(expiredKey, expiredOwner, 1);
                leases.add(new Lease(expiredKey, expiredOwner));
                free.add(expiredKey);

                String releasedKey = key("released-" + i);
                String releasedOwner = newOwner();
                acquired(releasedKey, releasedOwner, LONG_TTL);
                assertThat(store.release(releasedKey, releasedOwner))
                        .as("store.release(releasedKey, releasedOwner) must answer true")
                        .isTrue();
                leases.add(new Lease(releasedKey, releasedOwner));
                free.add(releasedKey);

                String neverKey = key("never-" + i);
                leases.add(new Lease(neverKey, newOwner()));
                free.add(neverKey);
            }
            Collections.shuffle(leases);
            pause(scaled(20));

            Set<Lease> renewed = store.renewAll(leases, LONG_TTL);

            assertThat(renewed)
                    .as("renewAll of %d leases returns exactly the held leases", leases.size())
                    .containsExactlyInAnyOrderElementsOf(held);
            pause(Duration.ofMillis(firstTtl).plus(scaled(200)));
            for (Lease lease : held) {
                assertHeld(lease.key(), "renewed by renewAll, past its first ttl");
            }
            for (Lease lease : othersLocks) {
                assertThat(store.release(lease.key(), lease.owner()))
                        .as("another owner's lock is untouched")
                        .isTrue();
            }
            for (String key : free) {
                assertThat(store.acquire(key, newOwner(), LONG_TTL).isAcquired())
                        .as("%s was not held, and renewAll did not revive or create it", describe(key))
                        .isTrue();
            }
        }
    }

    /** Release is one compare-and-set: only the holder's live lock is freed, never a successor's. */
    @Nested
    @Tag(ContractTags.RELEASE)
    public class Release {

        @Test
        @TckRule(id = "S-3.3-01", spec = "spec-store-release-holder")
        void holdersReleaseSucceedsOnceThenFails() {
            String key = key("held");
            String holder = newOwner();
            acquired(key, holder, LONG_TTL);

            assertThat(store.release(key, holder)).as("the holder's release").isTrue();
            assertThat(store.release(key, holder)).as("a second release").isFalse();
        }

        @Test
        @TckRule(id = "S-3.3-02", spec = "spec-store-release-compare-and-set")
        void anotherOwnersReleaseFailsAndTheLockStaysHeld() {
            String key = key("held");
            String holder = newOwner();
            acquired(key, holder, LONG_TTL);

            assertThat(store.release(key, newOwner()))
                    .as("release by another owner")
                    .isFalse();

            assertHeld(key, "after another owner's failed release");
            assertThat(store.renew(key, holder, LONG_TTL))
                    .as("the holder still holds it")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-3.3-03", spec = "spec-store-release-compare-and-set")
        void releaseAfterExpiryFails() {
            String key = key("expired");
            String holder = newOwner();
            acquiredAndExpired(key, holder);

            assertThat(store.release(key, holder))
                    .as("release of an expired lock")
                    .isFalse();
        }

        @Test
        @TckRule(id = "S-3.3-04", spec = "spec-store-release-compare-and-set")
        void releaseOfANeverTakenKeyFails() {
            String never = key("never");
            assertThat(store.release(never, newOwner()))
                    .as("store.release of %s, never taken, must answer false", describe(never))
                    .isFalse();
        }

        @Test
        @TckRule(id = "S-3.3-05", spec = "spec-store-release-compare-and-set")
        void staleOwnerNeverDeletesTheSuccessorsLock() {
            String key = key("taken-over");
            String stale = newOwner();
            acquiredAndExpired(key, stale);
            String successor = newOwner();
            awaitAcquired(key, successor, LONG_TTL);

            assertThat(store.release(key, stale))
                    .as("release by the stale owner")
                    .isFalse();

            assertHeld(key, "after the stale owner's release");
            assertThat(store.release(key, successor))
                    .as("the successor still holds it")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-3.3-06", spec = "spec-store-release-compare-and-set")
        void staleReleaseRacingATakeoverNeverDeletesTheSuccessorsLock() throws Exception {
            ExecutorService taker = Executors.newSingleThreadExecutor(ContractSupport.daemonThreads("baton-tck-taker"));
            try {
                for (int round = 0; round < 44; round++) {
                    String key = key("race-" + round);
                    String stale = newOwner();
                    String successor = newOwner();
                    long ttl = 20;
                    acquired(key, stale, ttl);
                    long expiry = System.nanoTime() + ttl * 1_000_000;
                    long deadline = System.nanoTime() + scaled(BOUND_MILLIS).toNanos();
                    Future<?> takeover = taker.submit(() -> {
                        while (!store.acquire(key, successor, LONG_TTL).isAcquired()) {
                            if (System.nanoTime() - deadline > 0) {
                                throw new AssertionError("the successor never took the expired " + describe(key));
                            }
                            LockSupport.parkNanos(100_000);
                        }
                        return null;
                    });
                    // Release around the expiry: from 2 ms after it to 8 ms before it.
                    LockSupport.parkNanos(expiry - ((round % 11) - 2) * 1_000_000L - System.nanoTime());
                    store.release(key, stale);
                    ContractSupport.awaitAll(List.of(takeover), scaled(2 * BOUND_MILLIS));

                    assertHeld(
                            key,
                            "round " + round + ": the successor took it with a 60 s lease and never released it,"
                                    + " so a stale release racing the takeover must not have deleted it");
                    assertThat(store.release(key, successor))
                            .as("round %d: the successor still holds it", round)
                            .isTrue();
                }
            } finally {
                taker.shutdownNow();
            }
        }
    }

    /** Keys are kept exactly apart; keys that are not valid are rejected. */
    @Nested
    @Tag(ContractTags.KEYS)
    public class Keys {

        @Test
        @TckRule(id = "S-2.1-01", spec = "spec-model-key-exact")
        void keysDifferingOnlyInCaseAreDifferentLocks() {
            assertDistinct(key("k"), key("K"));
            assertDistinct(key("stra\u00dfe"), key("STRASSE"));
            assertDistinct(key("i"), key("\u0130"));
        }

        @Test
        @TckRule(id = "S-2.1-02", spec = "spec-model-key-exact")
        void keysDifferingOnlyInTrailingOrLeadingSpaceAreDifferentLocks() {
            assertDistinct(key("a"), key("a "));
            assertDistinct(key("a"), key("a\t"));
            assertDistinct(key("a  "), key("a "));
            assertDistinct(" " + key("a"), key("a"));
        }

        @Test
        @TckRule(id = "S-2.1-03", spec = "spec-model-key-exact")
        void nfcAndNfdFormsAreDifferentLocks() {
            String nfc = key(Normalizer.normalize("\u00e9", Normalizer.Form.NFC));
            String nfd = key(Normalizer.normalize("\u00e9", Normalizer.Form.NFD));
            assertThat(nfc).isNotEqualTo(nfd);
            assertDistinct(nfc, nfd);
            assertDistinct(key("\u212b"), key("\u00c5"));
        }

        @Test
        @TckRule(id = "S-2.1-04", spec = "spec-model-key-range")
        void fourByteUtf8KeysAreKeptExactly() {
            assertAllDistinct(List.of(
                    key("\ud83d\ude00"),
                    key("\ud83d\ude01"),
                    key("?"),
                    key("\ufffd"),
                    key("??"),
                    key(""),
                    key("\ud800\udc00"),
                    key("\udbff\udfff")));
        }

        @Test
        @TckRule(id = "S-2.1-05", spec = "spec-model-key-range")
        void fiveHundredCharAsciiKeysAreKeptExactly() {
            String a = keyOfLength(LockArguments.MAX_KEY_LENGTH, "x", "a");
            String b = keyOfLength(LockArguments.MAX_KEY_LENGTH, "x", "b");
            assertThat(a).hasSize(500);
            assertDistinct(a, b);
            assertDistinct(a, a.substring(0, 499));
        }

        @Test
        @TckRule(id = "S-2.1-06", spec = "spec-model-key-range")
        void fiveHundredCharMultibyteKeysAreKeptExactly() {
            String a = keyOfLength(LockArguments.MAX_KEY_LENGTH, "\u00e9\u6f22\ud83d\ude00", "\u6f22");
            String b = keyOfLength(LockArguments.MAX_KEY_LENGTH, "\u00e9\u6f22\ud83d\ude00", "\u5b57");
            String emoji = keyOfLength(LockArguments.MAX_KEY_LENGTH, "\ud83d\ude00", "\ud83d\ude01");
            assertThat(List.of(a, b, emoji)).allSatisfy(each -> assertThat(each).hasSize(500));
            assertDistinct(a, b);
            assertDistinct(emoji, emoji.substring(0, 498) + "\ud83d\ude00");
        }

        @Test
        @TckRule(id = "S-2.1-07", spec = "spec-model-key-exact")
        void keysDifferingOnlyInTheLastCharAreDifferentLocks() {
            assertDistinct(key("lock-1"), key("lock-2"));
            assertDistinct(key("lock"), key("lock:1"));
        }

        @Test
        @TckRule(id = "S-9-01", spec = "spec-model-key-exact")
        void quotesAndBackslashesAreKeptExactly() {
            assertAllDistinct(List.of(
                    key("a'b"),
                    key("a''b"),
                    key("a\"b"),
                    key("a\\'b"),
                    key("a\\b"),
                    key("a\\\\b"),
                    key("a`b"),
                    key("ab"),
                    key("a\\")));
        }

        @Test
        @TckRule(id = "S-9-02", spec = "spec-model-key-exact")
        void likeWildcardsAreKeptExactly() {
            assertDistinct(key("abc"), key("a_c"));
            assertDistinct(key("abc"), key("a%"));
            assertAllDistinct(List.of(key("%"), key("_"), key("\\%"), key("\\_"), key("[a]"), key("*"), key("?x")));
        }

        @Test
        @TckRule(id = "S-9-03", spec = "spec-model-key-exact")
        void sqlAndLuaMetacharactersAreKeptExactly() {
            assertAllDistinct(List.of(
                    key("'; DROP TABLE baton_locks; --"),
                    key("' OR '1'='1"),
                    key("\" OR 1=1 --"),
                    key("]]..redis.call('FLUSHALL')..[["),
                    key("KEYS[1]"),
                    key("ARGV[1]"),
                    key("$1"),
                    key("?"),
                    key(":name"),
                    key("${key}"),
                    key("{0}"),
                    key("%s"),
                    key("/* */"),
                    key("#"),
                    key(";"),
                    key("\n"),
                    key("\r\n"),
                    key("--"),
                    key("\u001b[0m")));
        }

        @Test
        @TckRule(id = "S-2.1-08", spec = "spec-model-key-exact")
        void whitespaceOnlyKeysAreKeptExactly() {
            String[] spaces = {" ", "\t", "\n", "\u00a0", "\u2003", "\u3000"};
            StringBuilder base = new StringBuilder();
            for (int i = 0; i < 24; i++) {
                base.append(spaces[ContractSupport.randomInt(spaces.length)]);
            }
            String w = base.toString();
            assertAllDistinct(List.of(w, w + " ", " " + w, w + "\t", w + "\u00a0", w + "\u3000", w + "  "));
        }

        @Test
        @TckRule(id = "S-9-04", spec = "spec-model-key-invalid")
        void emptyKeyIsRejected() {
            assertKeyRejected("");
        }

        @Test
        @TckRule(id = "S-9-05", spec = "spec-model-key-invalid")
        void nullKeyIsRejected() {
            assertKeyRejected(null);
        }

        @Test
        @TckRule(id = "S-9-06", spec = "spec-model-key-invalid")
        void keyOfFiveHundredOneCharsIsRejected() {
            assertKeyRejected(keyOfLength(LockArguments.MAX_KEY_LENGTH + 1, "x", "y"));
            assertKeyRejected(keyOfLength(LockArguments.MAX_KEY_LENGTH + 1, "\u00e9", "\u00e9"));
        }

        @Test
        @TckRule(id = "S-9-07", spec = "spec-model-key-invalid")
        void keysWithLoneSurrogatesAreRejected() {
            assertKeyRejected(key("\ud800"));
            assertKeyRejected(key("\udc00") + "x");
            assertKeyRejected(key("\ude00\ud83d"));
            assertKeyRejected("\ud83d");
        }

        @Test
        @TckRule(id = "S-9-08", spec = "spec-model-key-nul")
        void nulIsKeptExactlyOrRejectedConsistently() {
            String base = key("nul");
            if (declares(StoreCapability.NUL_IN_KEYS)) {
                assertAllDistinct(
                        List.of(base + "\0", base, base + "\0\0", base + " ", base + "\0x", base + "x", base + "\\0"));
            } else {
                assertKeyRejected(base + "\0");
                assertKeyRejected("\0");
                assertKeyRejected(base + "\0x");
                assertAllDistinct(List.of(base, base + "x", base + " "));
            }
        }
    }

    /** Ttls from 1 ms to 30 days and beyond work; ttls out of range are rejected and change nothing. */
    @Nested
    @Tag(ContractTags.DURATIONS)
    public class Durations {

        @Test
        @TckRule(id = "S-2.5-01", spec = "spec-model-ttl-range")
        void ttlOfOneMillisecondWorks() {
            String key = key("short");
            long token = acquired(key, newOwner(), 1);

            assertThat(awaitAcquired(key, newOwner(), LONG_TTL))
                    .as("the key is free again soon after a 1 ms lease")
                    .isGreaterThan(token);
        }

        @Test
        @TckRule(id = "S-2.5-02", spec = "spec-model-ttl-range")
        void ttlOfThirtyDaysWorks() {
            String key = key("month");
            String holder = newOwner();
            acquired(key, holder, THIRTY_DAYS);

            assertHeld(key, "a 30-day lease");
            if (declares(StoreCapability.REMAINING_LEASE)) {
                assertThat(remainingLease(key))
                        .as("remaining of a 30-day lease")
                        .isGreaterThan(Integer.MAX_VALUE)
                        .isLessThanOrEqualTo(THIRTY_DAYS);
            }
            assertThat(store.renew(key, holder, THIRTY_DAYS))
                    .as("store.renew(key, holder, THIRTY_DAYS) must answer true")
                    .isTrue();
            assertHeld(key, "a renewed 30-day lease");
            assertThat(store.release(key, holder))
                    .as("store.release(key, holder) must answer true")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-2.5-03", spec = "spec-model-ttl-range")
        void ttlOfTheMaximumDurationWorks() {
            String key = key("year");
            String holder = newOwner();
            acquired(key, holder, LockArguments.MAX_DURATION_MILLIS);

            assertHeld(key, "a lease of " + LockArguments.MAX_DURATION_MILLIS + " ms");
            if (declares(StoreCapability.REMAINING_LEASE)) {
                assertThat(remainingLease(key))
                        .as("remaining of a 365-day lease, taken less than a day ago")
                        .isGreaterThan(LockArguments.MAX_DURATION_MILLIS - 86_400_000L)
                        .isLessThanOrEqualTo(LockArguments.MAX_DURATION_MILLIS);
            }
            assertThat(store.renew(key, holder, LockArguments.MAX_DURATION_MILLIS))
                    .as("store.renew(key, holder, LockArguments.MAX_DURATION_MILLIS) must answer true")
                    .isTrue();
            assertThat(store.release(key, holder))
                    .as("store.release(key, holder) must answer true")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-9-09", spec = "spec-model-ttl-invalid")
        void nonPositiveTtlIsRejected() {
            assertTtlsRejected(0, -1, Long.MIN_VALUE);
        }

        @Test
        @TckRule(id = "S-9-10", spec = "spec-model-ttl-invalid")
        void ttlAboveTheMaximumDurationIsRejected() {
            assertTtlsRejected(LockArguments.MAX_DURATION_MILLIS + 1, Long.MAX_VALUE);
        }

        private void assertTtlsRejected(long... ttls) {
            String key = key("bad-ttl");
            String holder = newOwner();
            for (long ttl : ttls) {
                assertRejected(() -> store.acquire(key, holder, ttl), "acquire", "ttl " + ttl);
            }
            assertThat(store.release(key, holder))
                    .as("a rejected acquire took nothing")
                    .isFalse();
            acquired(key, holder, LONG_TTL);
            for (long ttl : ttls) {
                assertRejected(() -> store.renew(key, holder, ttl), "renew", "ttl " + ttl);
            }
            assertHeld(key, "after rejected renewals");
            assertThat(store.release(key, holder))
                    .as("store.release(key, holder) must answer true")
                    .isTrue();
        }
    }

    /** Owners are compared exactly; owners that are not valid are rejected. */
    @Nested
    @Tag(ContractTags.OWNERS)
    public class Owners {

        @Test
        @TckRule(id = "S-2.1-09", spec = "spec-model-owner-exact")
        void ownersAreComparedExactly() {
            String key = key("owned");
            String holder = "owner-abc-" + ContractSupport.randomHex(8);
            acquired(key, holder, LONG_TTL);

            for (String other : List.of(
                    holder.toUpperCase(Locale.ROOT),
                    holder.substring(1),
                    holder + "x",
                    holder.substring(0, holder.length() - 1))) {
                assertThat(store.renew(key, other, LONG_TTL))
                        .as("renew by owner %s of a lock of %s", other, holder)
                        .isFalse();
                assertThat(store.release(key, other))
                        .as("release by owner %s of a lock of %s", other, holder)
                        .isFalse();
            }
            assertThat(store.release(key, holder))
                    .as("store.release(key, holder) must answer true")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-2.1-10", spec = "spec-model-owner-exact")
        void ownerOfSixtyFourPrintableCharsIsAccepted() {
            String key = key("owned");
            StringBuilder owner = new StringBuilder();
            for (char c = '!'; owner.length() < LockArguments.MAX_OWNER_LENGTH; c = c == '~' ? '!' : (char) (c + 1)) {
                owner.append(c);
            }
            acquired(key, owner.toString(), LONG_TTL);
            assertThat(store.renew(key, owner.toString(), LONG_TTL))
                    .as("store.renew(key, owner.toString(), LONG_TTL) must answer true")
                    .isTrue();
            assertThat(store.release(key, owner.toString()))
                    .as("store.release(key, owner.toString()) must answer true")
                    .isTrue();
        }

        @Test
        @TckRule(id = "S-9-11", spec = "spec-model-owner-invalid")
        void badOwnersAreRejected() {
            String key = key("owned");
            List<String> bad = new ArrayList<>(List.of(
                    "",
                    "a".repeat(LockArguments.MAX_OWNER_LENGTH + 1),
                    "with space",
                    "tab\there",
                    "caf\u00e9",
                    "nul\0",
                    "del\u007f",
                    "line\n"));
            bad.add(null);
            for (String owner : bad) {
                String what = "owner " + describe(owner);
                assertRejected(() -> store.acquire(key, owner, LONG_TTL), "acquire", what);
                assertRejected(() -> store.renew(key, owner, LONG_TTL), "renew", what);
                assertRejected(() -> store.release(key, owner), "release", what);
            }
            assertThat(store.acquire(key, newOwner(), LONG_TTL).isAcquired())
                    .as("rejected calls took nothing")
                    .isTrue();
        }
    }

    /**
     * A closed store instance refuses to work: every operation fails with a {@link LockStoreException}
     * (it neither reconnects nor answers from what it knew), a second close does nothing, and closing
     * changes nothing in the backend (for persistent stores: its live lock stays held).
     */
    @Nested
    @Tag(ContractTags.CLOSE)
    public class Close {

        @Test
        @TckRule(id = "S-3.5-01", spec = "spec-store-close")
        void everyOperationOnAClosedStoreFailsWithALockStoreException() {
            LockStore closing = newStore();
            String held = key("held");
            String owner = newOwner();
            acquired(closing, held, owner, LONG_TTL); // connected, and holding a lock

            closing.close();
            opened.removeIf(each -> each == closing);
            closing.close(); // a second close does nothing

            String free = key("free");
            List<Lease> leases = List.of(new Lease(held, owner));
            assertFailsClosed(() -> closing.acquire(free, newOwner(), LONG_TTL), "acquire");
            assertFailsClosed(() -> closing.acquire(free, newOwner(), LONG_TTL, 1_000), "acquire with a bound");
            assertFailsClosed(() -> closing.renew(held, owner, LONG_TTL), "renew");
            assertFailsClosed(() -> closing.renew(held, owner, LONG_TTL, 1_000), "renew with a bound");
            assertFailsClosed(() -> closing.renewAll(leases, LONG_TTL), "renewAll");
            assertFailsClosed(() -> closing.renewAll(leases, LONG_TTL, 1_000), "renewAll with a bound");
            assertFailsClosed(() -> closing.release(held, owner), "release");
            if (declares(StoreCapability.INSPECT)) {
                assertFailsClosed(() -> closing.inspect(held), "inspect");
            }

            if (declares(StoreCapability.PERSISTENT)) {
                assertHeld(held, "after the instance that took it was closed");
                assertThat(store.release(held, owner))
                        .as("the holder's release through another instance")
                        .isTrue();
                String taker = newOwner();
                acquired(free, taker, LONG_TTL);
                assertThat(store.release(free, taker))
                        .as("store.release(free, taker) must answer true")
                        .isTrue();
            }
            if (declares(StoreCapability.ENDS_WITH_CONNECTION)) {
                String taker = newOwner();
                acquired(store, held, taker, LONG_TTL); // at once: the lock ended with the closed instance
                assertThat(store.release(held, taker))
                        .as("store.release(held, taker) must answer true")
                        .isTrue();
            }
        }

        private void assertFailsClosed(ThrowingCallable call, String operation) {
            assertThatThrownBy(call)
                    .as(
                            "%s on a closed store must fail with a LockStoreException (not reconnect, not answer)",
                            operation)
                    .isInstanceOf(LockStoreException.class);
        }
    }

    /**
     * Inspection ({@link StoreCapability#INSPECT}): {@link LockStore#inspect} reports a key's live holder
     * exactly (owner, token, remaining lease by the store's clock) and nothing for a free key, changes
     * nothing, and the inspected owner is what frees the key (an administrative force-release), with the
     * key's tokens still increasing after it.
     */
    @Nested
    @Tag(ContractTags.INSPECT)
    public class Inspection {

        @BeforeEach
        void onlyWhereDeclared() {
            assumeCapability(StoreCapability.INSPECT);
        }

        @Test
        @TckRule(id = "S-3.4-04", spec = "spec-store-inspect-holder")
        void aKeyWithoutALiveLockHasNoHolder() {
            String never = key("never");
            assertThat(store.inspect(never))
                    .as("inspect of %s, never taken", describe(never))
                    .isEmpty();

            String released = key("released");
            String owner = newOwner();
            acquired(released, owner, LONG_TTL);
            assertThat(store.release(released, owner))
                    .as("release of %s by its holder", describe(released))
                    .isTrue();
            assertThat(store.inspect(released))
                    .as("inspect of %s, released", describe(released))
                    .isEmpty();

            String expired = key("expired");
            acquiredAndExpired(expired, newOwner());
            assertThat(store.inspect(expired))
                    .as("inspect of %s, whose lease is over: an expired lock does not exist", describe(expired))
                    .isEmpty();

            assertRejected(() -> store.inspect(""), "inspect", "an empty key");
            assertRejected(() -> store.inspect("tck:lone\uD800"), "inspect", "a key with a lone surrogate");
        }

        @Test
        @TckRule(id = "S-3.4-05", spec = "spec-store-inspect-holder")
        void theLiveHolderIsReportedWithItsOwnerTokenAndRemainingLease() {
            String key = key("held");
            String owner = newOwner();
            long token = acquired(key, owner, LONG_TTL);
            long since = System.nanoTime();
            pause(Duration.ofMillis(200));
            long idled = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);

            Holder holder = store.inspect(key)
                    .orElseThrow(() -> new AssertionError(
                            "inspect of the held " + describe(key) + " must report its holder, but reported none"));

            assertThat(holder.owner()).as("the holder's owner").isEqualTo(owner);
            assertThat(holder.fencingToken()).as("the holder's fencing token").isEqualTo(token);
            assertThat(holder.remainingLeaseMillis())
                    .as(
                            "the remaining lease of a %d ms lease taken %d ms ago, in milliseconds by the store's clock",
                            LONG_TTL, idled)
                    .isGreaterThan(LONG_TTL / 2)
                    .isLessThanOrEqualTo(LONG_TTL - idled + 1);
        }

        @Test
        @TckRule(id = "S-3.4-06", spec = "spec-store-inspect-read-only")
        void inspectingALockChangesNothing() {
            String key = null;
            String owner = null;
            Optional<Holder> seen = Optional.empty();
            // A loaded machine can take longer than the short lease between acquire and inspect: such a
            // round says nothing, so it is tried again on a new key; an empty answer inside the lease fails.
            for (int round = 0; round < 5 && seen.isEmpty(); round++) {
                key = key("short" + round);
                owner = newOwner();
                long started = System.nanoTime();
                acquired(key, owner, SHORT_TTL);
                seen = store.inspect(key);
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                if (seen.isEmpty() && took < SHORT_TTL) {
                    break;
                }
            }
            pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));

            assertThat(seen).as("the holder of %s, just taken", describe(key)).isPresent();
            assertThat(store.renew(key, owner, LONG_TTL))
                    .as("renew after the lease is over: inspect must not have lengthened it")
                    .isFalse();
            acquired(key, newOwner(), LONG_TTL);
        }

        @Test
        @TckRule(id = "S-3.4-07", spec = "spec-store-inspect-release")
        void releasingAsTheInspectedOwnerFreesTheKeyAndTokensKeepIncreasing() {
            String key = key("forced");
            String owner = newOwner();
            long first = acquired(key, owner, LONG_TTL);
            Holder holder = store.inspect(key)
                    .orElseThrow(() -> new AssertionError("the held " + describe(key) + " has a holder"));

            assertThat(store.release(key, holder.owner()))
                    .as("release of %s as its inspected owner", describe(key))
                    .isTrue();
            assertThat(store.inspect(key))
                    .as("inspect of %s after its release", describe(key))
                    .isEmpty();
            assertThat(store.renew(key, owner, LONG_TTL))
                    .as("the former holder's renewal after the key was freed")
                    .isFalse();

            String next = newOwner();
            long second = acquired(key, next, LONG_TTL);
            assertThat(second)
                    .as("the token of the next acquisition, after one of %d", first)
                    .isGreaterThan(first);
            assertThat(store.inspect(key))
                    .as("inspect of %s, taken again", describe(key))
                    .hasValueSatisfying(h -> {
                        assertThat(h.owner()).as("the new holder's owner").isEqualTo(next);
                        assertThat(h.fencingToken())
                                .as("the new holder's token")
                                .isEqualTo(second);
                    });
        }
    }

    /** Optional capabilities, each tested only when the store declares it. */
    /** Waiting turns ({@link StoreCapability#WAITING_TURNS}): the rules are in {@link WaitingTurnRules}. */
    @Nested
    @Tag(ContractTags.TURNS)
    public class WaitingTurns extends WaitingTurnRules {

        @BeforeEach
        void onlyWhereDeclared() {
            assumeCapability(StoreCapability.WAITING_TURNS);
        }

        @Override
        LockStore store() {
            return store;
        }

        @Override
        String key(String name) {
            return LockStoreContract.this.key(name);
        }

        @Override
        Duration scaled(long millis) {
            return LockStoreContract.this.scaled(millis);
        }
    }

    @Nested
    @Tag(ContractTags.CAPABILITIES)
    public class Capabilities {

        @Test
        @TckRule(id = "S-3.4-03", spec = "spec-store-release-notification")
        void releaseNotificationTellsListenersOfARelease() throws Exception {
            assumeCapability(StoreCapability.RELEASE_NOTIFICATION);
            String first = key("first");
            String second = key("second");
            List<String> heardByFirst = new CopyOnWriteArrayList<>();
            List<String> heardBySecond = new CopyOnWriteArrayList<>();
            Consumer<String> firstListener = heardByFirst::add;
            // Releases through any instance on the backend are told: listen on another one where there are two.
            LockStore listening = declares(StoreCapability.PERSISTENT) ? newStore() : store;
            AutoCloseable handle = listening.onRelease(firstListener);

            String holder = newOwner();
            acquired(first, holder, LONG_TTL);
            assertThat(store.release(first, holder))
                    .as("store.release(first, holder) must answer true")
                    .isTrue();
            waiting()
                    .alias("the listener is told of the release of " + describe(first))
                    .until(() -> heardByFirst.contains(first));

            handle.close();
            try (AutoCloseable secondHandle = listening.onRelease(heardBySecond::add)) {
                String next = newOwner();
                acquired(second, next, LONG_TTL);
                assertThat(store.release(second, next))
                        .as("store.release(second, next) must answer true")
                        .isTrue();
                waiting()
                        .alias("a listener registered later is told of the release of " + describe(second))
                        .until(() -> heardBySecond.contains(second));
                pause(scaled(100));
            }
            assertThat(heardByFirst)
                    .as("a listener whose handle was closed is told nothing more")
                    .doesNotContain(second);
        }
    }
}
