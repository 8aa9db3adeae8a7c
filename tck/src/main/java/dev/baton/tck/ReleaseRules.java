package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Release is one compare-and-set: only the holder's live lock is freed, never a successor's.
 *
 * <p>Run by {@link LockStoreContract.Release}, tagged {@value ContractTags#RELEASE}.
 */
abstract class ReleaseRules extends ContractRules {

    @Test
    @TckRule(id = "S-3.3-01", spec = "spec-store-release-holder")
    void holdersReleaseSucceedsOnceThenFails() {
        String key = key("held");
        String holder = newOwner();
        acquired(key, holder, LONG_TTL);

        assertThat(store().release(key, holder)).as("the holder's release").isTrue();
        assertThat(store().release(key, holder)).as("a second release").isFalse();
    }

    @Test
    @TckRule(id = "S-3.3-02", spec = "spec-store-release-compare-and-set")
    void anotherOwnersReleaseFailsAndTheLockStaysHeld() {
        String key = key("held");
        String holder = newOwner();
        acquired(key, holder, LONG_TTL);

        assertThat(store().release(key, newOwner()))
                .as("release by another owner")
                .isFalse();

        assertHeld(key, "after another owner's failed release");
        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("the holder still holds it")
                .isTrue();
    }

    @Test
    @TckRule(id = "S-3.3-03", spec = "spec-store-release-compare-and-set")
    void releaseAfterExpiryFails() {
        String key = key("expired");
        String holder = newOwner();
        acquiredAndExpired(key, holder);

        assertThat(store().release(key, holder))
                .as("release of an expired lock")
                .isFalse();
    }

    @Test
    @TckRule(id = "S-3.3-04", spec = "spec-store-release-compare-and-set")
    void releaseOfANeverTakenKeyFails() {
        String never = key("never");
        assertThat(store().release(never, newOwner()))
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

        assertThat(store().release(key, stale)).as("release by the stale owner").isFalse();

        assertHeld(key, "after the stale owner's release");
        assertThat(store().release(key, successor))
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
                    while (!store().acquire(Acquisition.of(key, successor, LONG_TTL))
                            .isAcquired()) {
                        if (System.nanoTime() - deadline > 0) {
                            throw new AssertionError("the successor never took the expired " + describe(key));
                        }
                        LockSupport.parkNanos(100_000);
                    }
                    return null;
                });
                // Release around the expiry: from 2 ms after it to 8 ms before it.
                LockSupport.parkNanos(expiry - ((round % 11) - 2) * 1_000_000L - System.nanoTime());
                store().release(key, stale);
                ContractSupport.awaitAll(List.of(takeover), scaled(2 * BOUND_MILLIS));

                assertHeld(
                        key,
                        "round " + round + ": the successor took it with a 60 s lease and never released it,"
                                + " so a stale release racing the takeover must not have deleted it");
                assertThat(store().release(key, successor))
                        .as("round %d: the successor still holds it", round)
                        .isTrue();
            }
        } finally {
            taker.shutdownNow();
        }
    }
}
