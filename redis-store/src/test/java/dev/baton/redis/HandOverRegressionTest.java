package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.redis.testing.TestRedis;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the store properties ({@code RedisStorePropertiesTest}) found in the hand-over, each kept as it was shrunk: a
 * hand-over of a free key by a caller that does not hold it answered not acquired (one call), where it is the next
 * owner's acquisition (TCK rule S-3.7-06); and, once that was fixed, a hand-over by the holder of a shared lease
 * released that lease (two calls), where a hand-over passes an exclusive lock only and a caller without one releases
 * nothing.
 */
class HandOverRegressionTest {

    private final RedisLockStore store = TestRedis.store("handover-regression");

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aHandOverOfAFreeKeyByACallerThatDoesNotHoldItIsTheNextOwnersAcquisition() {
        String key = "free:" + UUID.randomUUID();

        HandOverResult result = store.handOver("owner-0", Acquisition.of(key, "owner-0", 120_000));

        assertThat(result.released()).isFalse();
        assertThat(result.next().isAcquired()).as("%s", result).isTrue();
        assertThat(store.release(key, "owner-0")).isTrue();
    }

    @Test
    void aHandOverByTheHolderOfASharedLeaseReleasesNothing() {
        String key = "shared:" + UUID.randomUUID();
        assertThat(store.acquire(new Acquisition(key, "reader", 120_000, 2_000, null, 2))
                        .isAcquired())
                .isTrue();

        HandOverResult result = store.handOver("reader", Acquisition.of(key, "writer", 120_000));

        assertThat(result.released())
                .as("a shared lease is not handed over: %s", result)
                .isFalse();
        assertThat(result.next().isAcquired())
                .as("the writer beside the reader: %s", result)
                .isFalse();
        assertThat(store.release(key, "reader")).as("the reader's lease stays").isTrue();
    }
}
