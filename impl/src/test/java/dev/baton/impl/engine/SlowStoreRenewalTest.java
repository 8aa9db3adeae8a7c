package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.spi.Acquisition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store that is slow but answers (600 ms per renewal round trip, against a 1,500 ms lease) keeps its
 * locks: every renewal succeeds in the store, so none may be reported lost. The renewal interval
 * (ttl/3) counts from when the previous renewal was sent, as the lease does; counted from its reply,
 * the next renewal came one round trip too late and the watchdog reported the loss at ~2 s although
 * the store-side lease never lapsed.
 */
class SlowStoreRenewalTest {

    private static final long TTL = 1_500;
    private static final long ROUND_TRIP = 600;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final FaultyStore store = new FaultyStore();
    private final LostKeys listener = new LostKeys();

    @Test
    void renewalsThatSucceedSlowlyNeverLoseTheLock() throws Exception {
        LockEngine engine =
                engines.engine(store).ttl(TTL).timeout(1_000).listener(listener).build();
        store.renewDelayMillis = ROUND_TRIP;
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            locks.add(engine.acquire("slow-" + i, TTL, 1_000, true));
            Thread.sleep(170); // spread over the renewal interval: separate renewals as well as batches
        }

        // Four leases long (ten renewal intervals): every lock is still held, here and in the store.
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4 * TTL);
        while (System.nanoTime() < end) {
            for (HeldLock lock : locks) {
                assertThat(lock.isHeld())
                        .as("%s held (lost: %s)", lock, listener.keys())
                        .isTrue();
                assertThat(store.acquire(Acquisition.of(lock.key(), "intruder-owner", TTL))
                                .isAcquired())
                        .as("nobody else can take %s", lock.key())
                        .isFalse();
            }
            Thread.sleep(20);
        }
        assertThat(listener.keys()).as("locks reported lost").isEmpty();
        assertThat(store.renewCalls.get()).as("renewal round trips").isGreaterThanOrEqualTo(6);
        for (HeldLock lock : locks) {
            assertThat(lock.release()).as("released by its holder: %s", lock).isTrue();
        }
        engine.close();
    }
}
