package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the rules of a second store instance on the same backend share ({@link PersistenceRules} for a
 * {@code PERSISTENT} store, {@link EndsWithConnectionRules} for one whose locks end with their connection): locks
 * left behind by the instance that goes, and racers on two instances at once.
 */
abstract class TwoInstanceRules extends ContractRules {

    /** Takes {@code keys} 0 to 2 and leaves them released, expired (ttl 1 ms) and live for {@code liveOwner}: their tokens. */
    final long[] releasedExpiredAndLive(List<String> keys, String liveOwner) {
        long[] tokens = new long[keys.size()];
        String owner = newOwner();
        tokens[0] = acquired(keys.get(0), owner, LONG_TTL);
        assertThat(store().release(keys.get(0), owner))
                .as("store.release(keys.get(0), owner) must answer true")
                .isTrue();
        tokens[1] = acquired(keys.get(1), newOwner(), 1);
        tokens[2] = acquired(keys.get(2), liveOwner, LONG_TTL);
        return tokens;
    }

    /** The released and expired keys of {@link #releasedExpiredAndLive}, taken through a new instance with larger tokens. */
    final void assertTokensContinueOnReleasedAndExpired(LockStore restarted, List<String> keys, long[] tokens) {
        assertThat(acquired(restarted, keys.get(0), newOwner(), LONG_TTL))
                .as("token after restart and release")
                .isGreaterThan(tokens[0]);
        assertThat(awaitAcquired(restarted, keys.get(1), newOwner(), LONG_TTL))
                .as("token after restart and expiry")
                .isGreaterThan(tokens[1]);
    }

    final void assertOneWinnerAmongRacersOnTwoInstances() throws Exception {
        LockStore[] instances = {store(), newStore()};
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
                (round, racer) -> results[round][racer] =
                        instances[racer % 2].acquire(Acquisition.of(keys.get(round), newOwner(), LONG_TTL)));

        for (int round = 0; round < rounds; round++) {
            assertThat(Arrays.stream(results[round])
                            .filter(AcquireResult::isAcquired)
                            .count())
                    .as("winners of %s among racers on two store instances", describe(keys.get(round)))
                    .isOne();
        }
    }
}
