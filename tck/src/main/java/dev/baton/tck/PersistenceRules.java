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
 * A new store instance on the same backend (an application restart). Only for {@code PERSISTENT} stores.
 *
 * <p>Run by {@link LockStoreContract.Persistence}, tagged {@value ContractTags#PERSISTENCE}.
 */
abstract class PersistenceRules extends TwoInstanceRules {

    @BeforeEach
    void onlyForPersistentStores() {
        assumeCapability(StoreCapability.PERSISTENT);
    }

    @Test
    @TckRule(id = "S-2.4-04", spec = "spec-model-token-restart")
    void newStoreInstanceContinuesAboveEveryEarlierToken() {
        List<String> keys = List.of(key("released"), key("expired"), key("live"));
        String liveOwner = newOwner();
        long[] tokens = releasedExpiredAndLive(keys, liveOwner);

        LockStore restarted = restart(store());

        assertTokensContinueOnReleasedAndExpired(restarted, keys, tokens);
        assertThat(restarted.release(keys.get(2), liveOwner))
                .as("restarted.release(keys.get(2), liveOwner) must answer true")
                .isTrue();
        assertThat(acquired(restarted, keys.get(2), newOwner(), LONG_TTL))
                .as("token after restart, release by the new instance")
                .isGreaterThan(tokens[2]);
    }

    @Test
    @TckRule(id = "S-3.1-11", spec = "spec-store-persistent")
    void newStoreInstanceSeesLocksThatAreStillLive() {
        String key = key("live");
        String holder = newOwner();
        acquired(key, holder, LONG_TTL);

        LockStore restarted = restart(store());

        assertHeld(restarted, key, "after a restart");
        assertThat(restarted.renew(Renewal.of(key, newOwner(), LONG_TTL)))
                .as("renew by another owner after a restart")
                .isFalse();
        assertThat(restarted.release(key, newOwner()))
                .as("release by another owner after a restart")
                .isFalse();
        assertThat(restarted.renew(Renewal.of(key, holder, LONG_TTL)))
                .as("the holder's renew through the new instance")
                .isTrue();
        assertThat(restarted.release(key, holder))
                .as("the holder's release through the new instance")
                .isTrue();
    }

    @Test
    @TckRule(id = "S-3.1-12", spec = "spec-store-persistent")
    void racersOnTwoStoreInstancesGetExactlyOneWinner() throws Exception {
        assertOneWinnerAmongRacersOnTwoInstances();
    }
}
