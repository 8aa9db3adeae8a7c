package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Exactly one winner among threads that really race, on free and expired keys, on one key or many.
 *
 * <p>Run by {@link LockStoreContract.Atomicity}, tagged {@value ContractTags#CONCURRENCY}.
 */
abstract class AtomicityRules extends ContractRules {

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
                results[round][k][racer] = store().acquire(Acquisition.of(keys[round][k], newOwner(), LONG_TTL));
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
                AcquireResult result = store().acquire(Acquisition.of(key, owner, LONG_TTL));
                if (!result.isAcquired()) {
                    LockSupport.parkNanos(20_000);
                    continue;
                }
                if (inside.incrementAndGet() != 1) {
                    violations.add("token " + result.fencingToken() + " was granted while another holder was inside");
                }
                tokensInOrder.add(result.fencingToken());
                wins.incrementAndGet();
                Thread.yield();
                inside.decrementAndGet();
                if (!store().release(key, owner)) {
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
                (round, racer) ->
                        results[round][racer] = store().acquire(Acquisition.of(keys.get(round), newOwner(), LONG_TTL)));
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
            assertThat(winners.get(0).fencingToken()).as("the winner's token").isGreaterThan(earlierTokens[round]);
            assertHeld(keys.get(round), "after the race of round " + round);
        }
    }
}
