package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Renewal is one compare-and-set: only the holder's live lock is extended; nothing is revived.
 *
 * <p>Run by {@link LockStoreContract.Renew}, tagged {@value ContractTags#RENEW}.
 */
abstract class RenewRules extends ContractRules {

    @Test
    @TckRule(id = "S-3.2-01", spec = "spec-store-renew-holder")
    void holdersRenewSucceedsAndTheLockOutlivesItsFirstTtl() {
        String key = key("renewed");
        String holder = newOwner();
        long firstTtl = scaled(500).toMillis();
        acquired(key, holder, firstTtl);

        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("the holder's renew")
                .isTrue();

        pause(Duration.ofMillis(firstTtl).plus(scaled(200)));
        assertHeld(key, "past its first ttl, after a renewal");
        assertThat(store().release(key, holder)).as("the holder still holds it").isTrue();
    }

    @Test
    @TckRule(id = "S-3.2-02", spec = "spec-store-renew-compare-and-set")
    void anotherOwnersRenewFailsAndChangesNothing() {
        String key = key("held");
        String holder = newOwner();
        long ttl = scaled(1_000).toMillis();
        long token = acquired(key, holder, ttl);

        assertThat(store().renew(Renewal.of(key, newOwner(), LONG_TTL)))
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

        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("renew of an expired lock")
                .isFalse();

        AcquireResult next = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL));
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
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();

        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("renew of a released lock")
                .isFalse();

        assertThat(store().acquire(Acquisition.of(key, newOwner(), LONG_TTL)).isAcquired())
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

        assertThat(store().renew(Renewal.of(key, former, LONG_TTL)))
                .as("renew by the former holder")
                .isFalse();

        assertHeld(key, "after the former holder's renew");
        assertThat(store().release(key, successor))
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

        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("store.renew(Renewal.of(key, holder, LONG_TTL)) must answer true")
                .isTrue();
        assertThat(remainingLease(key))
                .as("remaining lease after renewing to 60 s")
                .isGreaterThan(10_000)
                .isLessThanOrEqualTo(LONG_TTL);
        assertThat(store().renew(Renewal.of(key, holder, 5_000)))
                .as("store.renew(Renewal.of(key, holder, 5_000)) must answer true")
                .isTrue();
        assertThat(remainingLease(key))
                .as("remaining lease after renewing to 5 s")
                .isLessThanOrEqualTo(5_000);
    }

    @Test
    @TckRule(id = "S-3.2-07", spec = "spec-store-renew-holder")
    void aShorterRenewalFreesTheKeyWhenItRunsOutNotAtTheFirstLease() {
        // What Baton's exclusive schedules rely on: a lock kept after its work (the claim of a planned time,
        // a hold) is renewed once to exactly the time left, and must then be free when that ends.
        String key = key("kept");
        String holder = newOwner();
        long token = acquired(key, holder, LONG_TTL);
        long shortTtl = scaled(300).toMillis();

        assertThat(store().renew(Renewal.of(key, holder, shortTtl)))
                .as("store.renew(Renewal.of(key, holder, %d)) must answer true", shortTtl)
                .isTrue();
        pause(Duration.ofMillis(shortTtl).plus(scaled(200)));
        AcquireResult after = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL));

        assertThat(after.isAcquired())
                .as(
                        "free once the shortened lease of %d ms ran out, not held to the first lease of %d ms",
                        shortTtl, LONG_TTL)
                .isTrue();
        assertThat(after.fencingToken()).as("the next holder's token").isGreaterThan(token);
    }

    @Test
    @TckRule(id = "S-3.4-01", spec = "spec-store-renew-all")
    void renewAllRenewsExactlyTheLeasesStillHeld() {
        assertRenewAllRenewsExactlyTheHeld(1);
        assertThat(store().renewAll(List.of(), LONG_TTL, LockArguments.STORE_BOUND))
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
            assertThat(store().release(releasedKey, releasedOwner))
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

        Set<Lease> renewed = store().renewAll(leases, LONG_TTL, LockArguments.STORE_BOUND);

        assertThat(renewed)
                .as("renewAll of %d leases returns exactly the held leases", leases.size())
                .containsExactlyInAnyOrderElementsOf(held);
        pause(Duration.ofMillis(firstTtl).plus(scaled(200)));
        for (Lease lease : held) {
            assertHeld(lease.key(), "renewed by renewAll, past its first ttl");
        }
        for (Lease lease : othersLocks) {
            assertThat(store().release(lease.key(), lease.owner()))
                    .as("another owner's lock is untouched")
                    .isTrue();
        }
        for (String key : free) {
            assertThat(store().acquire(Acquisition.of(key, newOwner(), LONG_TTL))
                            .isAcquired())
                    .as("%s was not held, and renewAll did not revive or create it", describe(key))
                    .isTrue();
        }
    }
}
