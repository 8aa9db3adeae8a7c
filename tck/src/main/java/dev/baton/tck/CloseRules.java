package dev.baton.tck;

import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A closed store instance refuses to work: every operation fails with a {@link LockStoreException}
 * (it neither reconnects nor answers from what it knew), a second close does nothing, and closing
 * changes nothing in the backend (for persistent stores: its live lock stays held).
 *
 * <p>Run by {@link LockStoreContract.Close}, tagged {@value ContractTags#CLOSE}.
 */
abstract class CloseRules extends ContractRules {

    @Test
    @TckRule(id = "S-3.5-01", spec = "spec-store-close")
    void everyOperationOnAClosedStoreFailsWithALockStoreException() {
        LockStore closing = newStore();
        String held = key("held");
        String owner = newOwner();
        acquired(closing, held, owner, LONG_TTL); // connected, and holding a lock

        closing.close();
        underTest().forget(closing); // closed here: not closed again after the rule
        closing.close(); // a second close does nothing

        String free = key("free");
        List<Lease> leases = List.of(new Lease(held, owner));
        assertFailsClosed(() -> closing.acquire(Acquisition.of(free, newOwner(), LONG_TTL)), "acquire");
        assertFailsClosed(
                () -> closing.acquire(Acquisition.of(free, newOwner(), LONG_TTL, 1_000)), "acquire with a bound");
        assertFailsClosed(() -> closing.renew(Renewal.of(held, owner, LONG_TTL)), "renew");
        assertFailsClosed(() -> closing.renew(new Renewal(held, owner, LONG_TTL, 1_000)), "renew with a bound");
        assertFailsClosed(() -> closing.renewAll(leases, LONG_TTL, LockArguments.STORE_BOUND), "renewAll");
        assertFailsClosed(() -> closing.renewAll(leases, LONG_TTL, 1_000), "renewAll with a bound");
        assertFailsClosed(() -> closing.release(held, owner), "release");
        if (declares(StoreCapability.INSPECT)) {
            assertFailsClosed(() -> closing.inspect(held), "inspect");
        }

        if (declares(StoreCapability.PERSISTENT)) {
            assertHeld(held, "after the instance that took it was closed");
            assertThat(store().release(held, owner))
                    .as("the holder's release through another instance")
                    .isTrue();
            String taker = newOwner();
            acquired(free, taker, LONG_TTL);
            assertThat(store().release(free, taker))
                    .as("store.release(free, taker) must answer true")
                    .isTrue();
        }
        if (declares(StoreCapability.ENDS_WITH_CONNECTION)) {
            String taker = newOwner();
            acquired(store(), held, taker, LONG_TTL); // at once: the lock ended with the closed instance
            assertThat(store().release(held, taker))
                    .as("store.release(held, taker) must answer true")
                    .isTrue();
        }
    }

    private void assertFailsClosed(ThrowingCallable call, String operation) {
        assertThatThrownBy(call)
                .as("%s on a closed store must fail with a LockStoreException (not reconnect, not answer)", operation)
                .isInstanceOf(LockStoreException.class);
    }
}
