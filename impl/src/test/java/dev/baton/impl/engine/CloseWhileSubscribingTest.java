package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockException;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.spi.Acquisition;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The first refused wait subscribes to the store's release notifications (a LISTEN connection, a pub/sub
 * client). If the engine closes while that subscription is being made, the subscription must still be
 * closed, once, or it outlives the application.
 */
class CloseWhileSubscribingTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    @Test
    void aSubscriptionMadeWhileTheEngineClosesIsClosedOnce() throws Exception {
        FaultyStore store = new FaultyStore();
        CountDownLatch subscribing = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicInteger subscriptionsClosed = new AtomicInteger();
        store.subscriber = listener -> {
            subscribing.countDown();
            try {
                proceed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return subscriptionsClosed::incrementAndGet;
        };
        store.acquire(
                Acquisition.of("first", "another-instance", 30_000, 0)); // a waiter subscribes after its first refusal
        LockEngine engine = engines.engine(store, 30_000, 10_000);
        CompletableFuture<HeldLock> first =
                CompletableFuture.supplyAsync(() -> engine.acquire("first", 30_000, 10_000, true));
        assertThat(subscribing.await(30, TimeUnit.SECONDS)).isTrue();
        engine.close();
        proceed.countDown();

        ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class, () -> first.get(30, TimeUnit.SECONDS));
        assertThat(failure.getCause()).isInstanceOf(LockException.class).hasMessageContaining("shut down");
        assertThat(subscriptionsClosed.get())
                .as("the subscription was closed, once")
                .isEqualTo(1);
        engine.close();
        assertThat(subscriptionsClosed.get()).isEqualTo(1);
        assertThatThrownBy(() -> engine.acquire("second", 30_000, 10_000, true)).isInstanceOf(LockException.class);
    }
}
