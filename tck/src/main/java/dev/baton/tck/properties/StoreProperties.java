package dev.baton.tck.properties;

import dev.baton.spi.LockStore;
import dev.baton.tck.ContractTags;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store properties: an optional group of the TCK that runs random sequences of calls by several owners
 * (acquire with and without turns, shared where declared, renew, renewAll, release, inspect, leaveTurn, hand-over,
 * and clock steps on a {@link TestClock}) against a store and against a small executable model of the contract, and
 * reports a failing sequence shrunk to the shortest one found. It finds what the contract suite's single scenarios
 * miss: a state that only a certain order of calls reaches. A store author extends it beside
 * {@link dev.baton.tck.LockStoreContract}:
 *
 * <pre>{@code
 * class MapLockStorePropertiesTest extends StoreProperties {
 *     @Override
 *     protected LockStore createStore() {
 *         return new MapLockStore(BACKEND);
 *     }
 * }
 * }</pre>
 *
 * <p>A store that can measure time with a clock it is given ({@link java.util.function.LongSupplier} of nanoseconds)
 * returns that clock from {@link #clock()}: the sequences then step it, so leases and turns expire within them. A
 * store on a real clock (a database's, Redis') keeps the default: every lease and turn then outlives its sequence
 * by far (ttl margins instead of clock steps), and the contract suite's rules check expiry.
 *
 * <p>Tagged {@value ContractTags#PROPERTIES}: leave it out with {@code -DexcludedGroups=properties}. The number of
 * sequences is {@link #tries()} ({@value #TRIES_PROPERTY}, default {@value #DEFAULT_TRIES}); the seed is random
 * unless {@value #SEED_PROPERTY} sets it, and a failure names the seed that repeats it.
 */
@Tag(ContractTags.PROPERTIES)
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a guard against a store that hangs
public abstract class StoreProperties {

    /** The system property with the number of random sequences: {@value}. */
    public static final String TRIES_PROPERTY = "baton.tck.properties.tries";

    /** The system property with the seed of the random sequences: {@value}. */
    public static final String SEED_PROPERTY = "baton.tck.properties.seed";

    /** The number of sequences when {@value #TRIES_PROPERTY} is not set. */
    public static final int DEFAULT_TRIES = 150;

    /**
     * Creates a new store instance; each sequence runs on one, with keys of its own, and closes it.
     *
     * @return a new store
     */
    protected abstract LockStore createStore();

    /**
     * The clock the stores of {@link #createStore()} measure leases and turns with, when the test gives it to them.
     *
     * @return the clock; empty (the default) for a store on a real clock
     */
    protected Optional<TestClock> clock() {
        return Optional.empty();
    }

    /** @return how many random sequences to run: {@value #TRIES_PROPERTY}, else {@value #DEFAULT_TRIES} */
    protected int tries() {
        return Integer.getInteger(TRIES_PROPERTY, DEFAULT_TRIES);
    }

    @Test
    void randomSequencesOfCallsKeepTheContract() {
        Long seed = Long.getLong(SEED_PROPERTY);
        new StoreSequences(this::createStore, clock().orElse(null))
                .check(tries(), seed != null ? seed : new SecureRandom().nextLong());
    }
}
