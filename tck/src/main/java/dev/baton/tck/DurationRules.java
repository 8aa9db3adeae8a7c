package dev.baton.tck;

import static dev.baton.tck.ContractSupport.newOwner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import org.junit.jupiter.api.Test;

/**
 * Ttls from 1 ms to 30 days and up to the maximum duration work.
 *
 * <p>Run by {@link LockStoreContract.Durations}, tagged {@value ContractTags#DURATIONS}.
 */
abstract class DurationRules extends ContractRules {

    @Test
    @TckRule(id = "S-2.5-01", spec = "spec-model-ttl-range")
    void ttlOfOneMillisecondWorks() {
        String key = key("short");
        long token = acquired(key, newOwner(), 1);

        assertThat(awaitAcquired(key, newOwner(), LONG_TTL))
                .as("the key is free again soon after a 1 ms lease")
                .isGreaterThan(token);
    }

    @Test
    @TckRule(id = "S-2.5-02", spec = "spec-model-ttl-range")
    void ttlOfThirtyDaysWorks() {
        String key = key("month");
        String holder = newOwner();
        acquired(key, holder, THIRTY_DAYS);

        assertHeld(key, "a 30-day lease");
        if (declares(StoreCapability.REMAINING_LEASE)) {
            assertThat(remainingLease(key))
                    .as("remaining of a 30-day lease")
                    .isGreaterThan(Integer.MAX_VALUE)
                    .isLessThanOrEqualTo(THIRTY_DAYS);
        }
        assertThat(store().renew(Renewal.of(key, holder, THIRTY_DAYS)))
                .as("store.renew(Renewal.of(key, holder, THIRTY_DAYS)) must answer true")
                .isTrue();
        assertHeld(key, "a renewed 30-day lease");
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();
    }

    @Test
    @TckRule(id = "S-2.5-03", spec = "spec-model-ttl-range")
    void ttlOfTheMaximumDurationWorks() {
        String key = key("year");
        String holder = newOwner();
        acquired(key, holder, LockArguments.MAX_DURATION_MILLIS);

        assertHeld(key, "a lease of " + LockArguments.MAX_DURATION_MILLIS + " ms");
        if (declares(StoreCapability.REMAINING_LEASE)) {
            assertThat(remainingLease(key))
                    .as("remaining of a 365-day lease, taken less than a day ago")
                    .isGreaterThan(LockArguments.MAX_DURATION_MILLIS - 86_400_000L)
                    .isLessThanOrEqualTo(LockArguments.MAX_DURATION_MILLIS);
        }
        assertThat(store().renew(Renewal.of(key, holder, LockArguments.MAX_DURATION_MILLIS)))
                .as("store.renew(Renewal.of(key, holder, LockArguments.MAX_DURATION_MILLIS)) must answer true")
                .isTrue();
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();
    }
}
