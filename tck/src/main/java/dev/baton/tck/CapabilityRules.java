package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Optional capabilities, each tested only when the store declares it.
 *
 * <p>Run by {@link LockStoreContract.Capabilities}, tagged {@value ContractTags#CAPABILITIES}.
 */
abstract class CapabilityRules extends ContractRules {

    @Test
    @TckRule(id = "S-3.6-18", spec = "spec-store-shared-declared")
    void aStoreThatSharesLocksAlsoKeepsWaitingTurns() {
        assumeCapability(StoreCapability.SHARED_LOCKS);

        // Turns are what keep a stream of readers from starving a waiting writer.
        assertThat(underTest().capabilities())
                .as("%s declares SHARED_LOCKS, so it must declare WAITING_TURNS too", store())
                .contains(StoreCapability.WAITING_TURNS);
    }

    @Test
    @TckRule(id = "S-3.4-03", spec = "spec-store-release-notification")
    void releaseNotificationTellsListenersOfARelease() throws Exception {
        assumeCapability(StoreCapability.RELEASE_NOTIFICATION);
        String first = key("first");
        String second = key("second");
        List<String> heardByFirst = new CopyOnWriteArrayList<>();
        List<String> heardBySecond = new CopyOnWriteArrayList<>();
        Consumer<String> firstListener = heardByFirst::add;
        // Releases through any instance on the backend are told: listen on another one where there are two.
        LockStore listening = declares(StoreCapability.PERSISTENT) ? newStore() : store();
        AutoCloseable handle = listening.onRelease(firstListener);

        String holder = newOwner();
        acquired(first, holder, LONG_TTL);
        waiterInTurn(first);
        assertThat(store().release(first, holder))
                .as("store.release(first, holder) must answer true")
                .isTrue();
        waiting()
                .alias("the listener is told of the release of " + describe(first))
                .until(() -> heardByFirst.contains(first));

        handle.close();
        try (AutoCloseable secondHandle = listening.onRelease(heardBySecond::add)) {
            String next = newOwner();
            acquired(second, next, LONG_TTL);
            waiterInTurn(second);
            assertThat(store().release(second, next))
                    .as("store.release(second, next) must answer true")
                    .isTrue();
            waiting()
                    .alias("a listener registered later is told of the release of " + describe(second))
                    .until(() -> heardBySecond.contains(second));
            pause(scaled(100));
        }
        assertThat(heardByFirst)
                .as("a listener whose handle was closed is told nothing more")
                .doesNotContain(second);
    }

    /**
     * Where the store keeps turns, a release need only be told while a waiter's turn on the key is live (what a
     * runtime's waiter keeps while it waits): a waiter claims the turn of the held key first.
     */
    private void waiterInTurn(String key) {
        if (!declares(StoreCapability.WAITING_TURNS)) {
            return;
        }
        assertInTurn(
                store().acquire(new Acquisition(
                        key, newOwner(), LONG_TTL, LockArguments.STORE_BOUND, new Turn(newOwner(), 0, LONG_TTL))),
                "a waiter asking with its turn while the key is held",
                key);
    }
}
