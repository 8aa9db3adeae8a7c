package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockTimeoutException;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.spi.Acquisition;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store whose answer comes back late: the engine passes each call its bound (the caller's remaining
 * timeout for an acquisition, 0 for a try; what is left of the lease for a renewal), and never hands out
 * a lock whose lease (counted from when the acquisition was sent) has already ended when the answer
 * arrives: that acquisition is given back to the store and counts as not acquired.
 */
class LateStoreAnswerTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final FaultyStore store = new FaultyStore();
    private final LostKeys listener = new LostKeys();

    @Test
    void anAcquisitionAnsweredAfterItsLeaseEndedIsNotHandedOutAndTheCallerKeepsWaiting() throws Exception {
        LockEngine engine = engines.engine(store)
                .ttl(1_000)
                .timeout(5_000)
                .listener(listener)
                .build();
        AtomicInteger calls = new AtomicInteger();
        store.onAcquire = () -> store.acquireReplyDelayMillis = calls.incrementAndGet() == 1 ? 1_200 : 0;

        HeldLock lock = engine.acquire("late", 1_000, 5_000, true);

        assertThat(lock.isHeld()).as("the lock handed out is live").isTrue();
        assertThat(store.acquireCalls.get())
                .as("the late answer did not count; a second attempt took the key")
                .isEqualTo(2);
        assertThat(store.releases)
                .as("the acquisition whose lease had ended was given back to the store")
                .hasSize(1);
        Thread.sleep(2_000); // two leases: renewed, never lost
        assertThat(lock.isHeld()).as("held; lost: %s", lock.lossReason()).isTrue();
        assertThat(listener.keys()).isEmpty();
        assertThat(lock.release()).isTrue();
        engine.close();
    }

    @Test
    void aTryAnsweredAfterItsLeaseEndedIsNotAcquired() {
        LockEngine engine =
                engines.engine(store).ttl(300).timeout(5_000).listener(listener).build();
        store.acquireReplyDelayMillis = 500;

        assertThat(engine.acquireOrNull("late-try", 300, 0, false))
                .as("no lock whose lease is over")
                .isNull();

        assertThat(store.acquireCalls.get()).as("tried once").isOne();
        assertThat(store.releases).as("given back to the store").hasSize(1);
        store.acquireReplyDelayMillis = 0;
        assertThat(store.acquire(Acquisition.of("late-try", "another-owner", 1_000))
                        .isAcquired())
                .as("free for others")
                .isTrue();
        engine.close();
    }

    @Test
    void anAcquisitionWithATimeoutOnASlowStoreDoesNotReturnALostLock() {
        // Every answer takes longer than the lease: the caller gets a timeout, never a lock already over.
        LockEngine engine = engines.engine(store)
                .ttl(1_000)
                .timeout(3_000)
                .listener(listener)
                .build();
        store.acquireReplyDelayMillis = 1_200;

        long started = System.nanoTime();
        assertThatThrownBy(() -> engine.acquire("slow", 1_000, 3_000, true))
                .isInstanceOf(LockTimeoutException.class)
                .satisfies(
                        e -> assertThat(((LockTimeoutException) e).getTimeout()).isEqualTo(Duration.ofSeconds(3)));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(tookMillis).as("at most one store call past the timeout").isLessThan(3_000 + 1_200 + 2_000);
        assertThat(store.releases).as("every late acquisition given back").hasSize(store.acquireCalls.get());
        assertThat(engine.heldCount()).isZero();
        assertThat(listener.keys()).isEmpty();
        engine.close();
    }

    @Test
    void eachStoreCallGetsItsBound() throws Exception {
        LockEngine engine = engines.engine(store)
                .ttl(1_500)
                .timeout(3_000)
                .listener(listener)
                .build();

        assertThat(engine.acquireOrNull("try", 1_500, 0, false)).isNotNull();
        assertThat(store.acquireBounds).as("a try does not wait for anyone").containsExactly(0L);

        store.acquireBounds.clear();
        HeldLock waited = engine.acquire("timed", 1_500, 3_000, true);
        assertThat(store.acquireBounds)
                .as("an acquisition may take the caller's remaining timeout")
                .hasSize(1)
                .allSatisfy(bound -> assertThat(bound).isBetween(2_000L, 3_000L));

        await().atMost(Duration.ofSeconds(10)).until(() -> store.renewBounds.size() >= 4);
        assertThat(store.renewBounds)
                .as("a renewal may take what is left of the lease")
                .allSatisfy(bound -> assertThat(bound).isBetween(1L, 1_500L));
        assertThat(waited.isHeld()).isTrue();
        engine.close();
    }
}
