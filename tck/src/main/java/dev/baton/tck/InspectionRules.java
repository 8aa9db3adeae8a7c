package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.Holder;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Inspection ({@link StoreCapability#INSPECT}): {@link LockStore#inspect} reports a key's live holder
 * exactly (owner, token, remaining lease by the store's clock) and nothing for a free key, changes
 * nothing, and the inspected owner is what frees the key (an administrative force-release), with the
 * key's tokens still increasing after it.
 *
 * <p>Run by {@link LockStoreContract.Inspection}, tagged {@value ContractTags#INSPECT}.
 */
abstract class InspectionRules extends ContractRules {

    @BeforeEach
    void onlyWhereDeclared() {
        assumeCapability(StoreCapability.INSPECT);
    }

    @Test
    @TckRule(id = "S-3.4-04", spec = "spec-store-inspect-holder")
    void aKeyWithoutALiveLockHasNoHolder() {
        String never = key("never");
        assertThat(store().inspect(never))
                .as("inspect of %s, never taken", describe(never))
                .isEmpty();

        String released = key("released");
        String owner = newOwner();
        acquired(released, owner, LONG_TTL);
        assertThat(store().release(released, owner))
                .as("release of %s by its holder", describe(released))
                .isTrue();
        assertThat(store().inspect(released))
                .as("inspect of %s, released", describe(released))
                .isEmpty();

        String expired = key("expired");
        acquiredAndExpired(expired, newOwner());
        assertThat(store().inspect(expired))
                .as("inspect of %s, whose lease is over: an expired lock does not exist", describe(expired))
                .isEmpty();
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

        Holder holder = store().inspect(key)
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
            seen = store().inspect(key);
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            if (seen.isEmpty() && took < SHORT_TTL) {
                break;
            }
        }
        pause(Duration.ofMillis(SHORT_TTL).plus(scaled(100)));

        assertThat(seen).as("the holder of %s, just taken", describe(key)).isPresent();
        assertThat(store().renew(Renewal.of(key, owner, LONG_TTL)))
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
        Holder holder = store().inspect(key)
                .orElseThrow(() -> new AssertionError("the held " + describe(key) + " has a holder"));

        assertThat(store().release(key, holder.owner()))
                .as("release of %s as its inspected owner", describe(key))
                .isTrue();
        assertThat(store().inspect(key))
                .as("inspect of %s after its release", describe(key))
                .isEmpty();
        assertThat(store().renew(Renewal.of(key, owner, LONG_TTL)))
                .as("the former holder's renewal after the key was freed")
                .isFalse();

        String next = newOwner();
        long second = acquired(key, next, LONG_TTL);
        assertThat(second)
                .as("the token of the next acquisition, after one of %d", first)
                .isGreaterThan(first);
        assertThat(store().inspect(key))
                .as("inspect of %s, taken again", describe(key))
                .hasValueSatisfying(h -> {
                    assertThat(h.owner()).as("the new holder's owner").isEqualTo(next);
                    assertThat(h.fencingToken()).as("the new holder's token").isEqualTo(second);
                });
    }
}
