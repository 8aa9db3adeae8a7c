package dev.baton.tck;

import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Taking a key: free, live, released and expired keys; what a refusal reports.
 *
 * <p>Run by {@link LockStoreContract.Acquire}, tagged {@value ContractTags#ACQUIRE}.
 */
abstract class AcquireRules extends ContractRules {

    @Test
    @TckRule(id = "S-3.1-01", spec = "spec-store-acquire-free-key")
    void freeKeyIsTakenWithAPositiveToken() {
        AcquireResult result = store().acquire(Acquisition.of(key("free"), newOwner(), LONG_TTL));

        assertThat(result.isAcquired()).as("a free key is taken").isTrue();
        assertThat(result.fencingToken()).as("the fencing token of %s", result).isPositive();
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
        assertThat(store().release(key, holder))
                .as("the first holder still holds it")
                .isTrue();
    }

    @Test
    @TckRule(id = "S-3.1-03", spec = "spec-store-acquire-live-key-refused")
    void liveKeyIsNotTakenAgainByTheSameOwner() {
        String key = key("live");
        String holder = newOwner();
        acquired(key, holder, LONG_TTL);

        AcquireResult again = store().acquire(Acquisition.of(key, holder, LONG_TTL));

        assertThat(again.isAcquired())
                .as("a lock is taken once, also by its own owner: %s", again)
                .isFalse();
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();
        assertThat(store().release(key, holder))
                .as("there was only one lock to release")
                .isFalse();
    }

    @Test
    @TckRule(id = "S-3.1-04", spec = "spec-store-acquire-released-key")
    void releasedKeyIsTakenAgainWithALargerToken() {
        String key = key("released");
        String first = newOwner();
        long firstToken = acquired(key, first, LONG_TTL);
        assertThat(store().release(key, first))
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
            assertThat(store().acquire(Acquisition.of(key, newOwner(), LONG_TTL))
                            .isAcquired())
                    .as("acquire of a held key")
                    .isFalse();
        }

        assertThat(awaitAcquired(key, newOwner(), LONG_TTL))
                .as("the holder's lease ran out at its own ttl, not extended by refused callers")
                .isGreaterThan(token);
        assertThat(store().release(key, holder))
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
        assertThat(store().renew(Renewal.of(key, first, LONG_TTL)))
                .as("store.renew(Renewal.of(key, first, LONG_TTL)) must answer false")
                .isFalse();
        assertThat(store().release(key, first))
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
