package dev.baton.tck;

import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Locks that end with the connection of the instance that took them ({@link StoreCapability#ENDS_WITH_CONNECTION}):
 * tokens outlive the instance, locks do not; only the taking instance renews or releases; the holding
 * instance ends a lock that is not renewed within its ttl. Only for stores that declare it, in place of
 * {@link PersistenceRules}.
 *
 * <p>Run by {@link LockStoreContract.EndsWithConnection}, tagged {@value ContractTags#ENDS_WITH_CONNECTION}.
 */
abstract class EndsWithConnectionRules extends TwoInstanceRules {

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

        LockStore restarted = restart(store());

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

        assertThat(other.renew(Renewal.of(key, holder, LONG_TTL)))
                .as("the holder's renew through another instance")
                .isFalse();
        assertThat(other.release(key, holder))
                .as("the holder's release through another instance")
                .isFalse();
        assertHeld(other, key, "after another instance's renew and release");
        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("the holder's renew through its own instance")
                .isTrue();
        assertThat(store().release(key, holder))
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
        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("the holder's renew after its ttl passed")
                .isFalse();
        assertThat(store().release(key, holder))
                .as("the holder's release after its ttl passed")
                .isFalse();
    }

    @Test
    @TckRule(id = "S-7-04", spec = "spec-store-connection-atomic")
    void racersOnTwoStoreInstancesGetExactlyOneWinner() throws Exception {
        assertOneWinnerAmongRacersOnTwoInstances();
    }
}
