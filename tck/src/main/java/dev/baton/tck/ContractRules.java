package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * What every group of rules of {@link LockStoreContract} shares: the suite's constants, the store under test, and
 * the steps and checks the rules are written in. Each group is a subclass in a file of its own ({@link
 * AcquireRules}, {@link KeyRules}, ...), run by a {@link org.junit.jupiter.api.Nested} class of the contract that
 * names the group and carries its tag; that class only hands over the contract's {@link StoreUnderTest}.
 */
abstract class ContractRules {

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
    /** The base bound of every wait, before the {@link LockStoreContract#timeFactor() time factor}. */
    static final long BOUND_MILLIS = 10_000;

    /** @return the store under test of the running rule, kept by the enclosing {@link LockStoreContract} */
    abstract StoreUnderTest underTest();

    /** @return the instance the rule works on */
    final LockStore store() {
        return underTest().store();
    }

    /** @return a new instance on the same backend, closed after the rule */
    final LockStore newStore() {
        return underTest().newStore();
    }

    /** Closes {@code old} (an application stop) and opens a new instance on the same backend. */
    final LockStore restart(LockStore old) {
        return underTest().restart(old);
    }

    /** A key of this rule, apart from every other rule's and run's. */
    final String key(String name) {
        return underTest().key(name);
    }

    /** @return {@code millis} times the suite's time factor */
    final Duration scaled(long millis) {
        return underTest().scaled(millis);
    }

    final ConditionFactory waiting() {
        return Awaitility.await()
                .pollInSameThread()
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5))
                .atMost(scaled(BOUND_MILLIS));
    }

    /** Skips the rule unless the store declares {@code capability}. */
    final void assumeCapability(StoreCapability capability) {
        assumeThat(underTest().capabilities())
                .as("the store declares %s", capability)
                .contains(capability);
    }

    final boolean declares(StoreCapability capability) {
        return underTest().declares(capability);
    }

    /** Acquires and asserts it worked; returns the token. */
    final long acquired(LockStore on, String key, String owner, long ttl) {
        AcquireResult result = on.acquire(Acquisition.of(key, owner, ttl));
        assertThat(result.isAcquired())
                .as("acquire(%s, ttl %d ms) must succeed", describe(key), ttl)
                .isTrue();
        assertThat(result.fencingToken()).as("fencing token").isPositive();
        return result.fencingToken();
    }

    final long acquired(String key, String owner, long ttl) {
        return acquired(store(), key, owner, ttl);
    }

    /** Asserts that a new owner cannot take {@code key} now. */
    final void assertHeld(LockStore on, String key, String why) {
        AcquireResult result = on.acquire(Acquisition.of(key, newOwner(), LONG_TTL));
        assertThat(result.isAcquired())
                .as("%s: %s must still be held, but another owner took it with %s", why, describe(key), result)
                .isFalse();
    }

    final void assertHeld(String key, String why) {
        assertHeld(store(), key, why);
    }

    /** A new owner's refused acquire of the held {@code key}: the remaining lease it reports. */
    final long remainingLease(String key) {
        AcquireResult refused = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL));
        assertThat(refused.isAcquired()).as("%s is held", describe(key)).isFalse();
        assertThat(refused.remainingLeaseMillis())
                .as("REMAINING_LEASE is declared: a refusal reports the holder's remaining lease")
                .isPresent();
        return refused.remainingLeaseMillis().getAsLong();
    }

    /** Polls until {@code owner} takes {@code key}, within the bound; returns the token. */
    final long awaitAcquired(LockStore on, String key, String owner, long ttl) {
        AtomicReference<AcquireResult> result = new AtomicReference<>();
        waiting().alias("acquire " + describe(key) + " once its lock is over").until(() -> {
            result.set(on.acquire(Acquisition.of(key, owner, ttl)));
            return result.get().isAcquired();
        });
        assertThat(result.get().fencingToken()).as("fencing token").isPositive();
        return result.get().fencingToken();
    }

    final long awaitAcquired(String key, String owner, long ttl) {
        return awaitAcquired(store(), key, owner, ttl);
    }

    /** Acquires {@code key} with {@link #SHORT_TTL} and idles, untouched, until the lease is surely over. */
    final long acquiredAndExpired(String key, String owner) {
        long token = acquired(key, owner, SHORT_TTL);
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));
        return token;
    }

    /** Asserts that a waiter's acquire did not take the key but holds its turn ({@code WAITING_TURNS}). */
    static void assertInTurn(AcquireResult result, String who, String key) {
        assertThat(result.isAcquired())
                .as("%s must not take %s: %s", who, describe(key), result)
                .isFalse();
        assertThat(result.isNextInTurn())
                .as("%s must hold the turn of %s: %s", who, describe(key), result)
                .isTrue();
    }

    /** Asserts that a waiter's acquire took neither the key nor its turn ({@code WAITING_TURNS}). */
    static void assertRefusedWithoutTurn(AcquireResult result, String who, String key) {
        assertThat(result.isAcquired())
                .as("%s must not take %s: %s", who, describe(key), result)
                .isFalse();
        assertThat(result.isNextInTurn())
                .as("%s must not hold the turn of %s: %s", who, describe(key), result)
                .isFalse();
    }

    static void assertStrictlyIncreasing(List<Long> tokens, String what) {
        for (int i = 1; i < tokens.size(); i++) {
            if (tokens.get(i) <= tokens.get(i - 1)) {
                throw new AssertionError("fencing tokens must strictly increase " + what + ", but token #" + (i + 1)
                        + " was " + tokens.get(i) + " after " + tokens.get(i - 1) + "; tokens around it: "
                        + tokens.subList(Math.max(0, i - 5), Math.min(tokens.size(), i + 5)));
            }
        }
    }
}
