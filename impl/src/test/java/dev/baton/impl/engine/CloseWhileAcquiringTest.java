package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockException;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.spi.Acquisition;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Closing an engine (application stop) while a caller is inside the store's acquire, or waiting for a key:
 * the caller must not come out holding a lock of a closed engine, which nobody would ever release.
 */
class CloseWhileAcquiringTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();
    /** The store other instances use too: the engine closing its client must not close it for them. */
    private final FaultyStore backend = new FaultyStore();

    @Test
    void aLockWonWhileTheEngineClosesIsReleasedAndNotHandedOut() throws Exception {
        FaultyStore store = new FaultyStore();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        store.onAcquire = () -> {
            inside.countDown();
            try {
                proceed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        LockEngine engine = engines.engine(store, 30_000, 10_000);
        CompletableFuture<HeldLock> acquiring =
                CompletableFuture.supplyAsync(() -> engine.acquire("closing", 30_000, 10_000, true));
        assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
        engine.close();
        store.onAcquire = null;
        proceed.countDown();

        ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class, () -> acquiring.get(30, TimeUnit.SECONDS));
        assertThat(failure.getCause()).isInstanceOf(LockException.class).hasMessageContaining("shut down");
        assertThat(engine.heldCount()).isZero();
        assertThat(store.acquire(Acquisition.of("closing", "another-instance", 1_000))
                        .isAcquired())
                .as("the key is free in the store once the engine is closed")
                .isTrue();
    }

    @Test
    void aWaiterDoesNotTakeTheKeyAfterTheEngineClosed() throws Exception {
        LockEngine engine = engines.engine(backend, 30_000, 10_000);
        // Another instance holds the key for a short while; our waiter polls for it.
        assertThat(backend.acquire(Acquisition.of("remote", "another-instance", 500))
                        .isAcquired())
                .isTrue();
        CompletableFuture<HeldLock> waiting =
                CompletableFuture.supplyAsync(() -> engine.acquire("remote", 30_000, 30_000, true));
        await().during(Duration.ofMillis(50)).until(() -> !waiting.isDone());
        engine.close();

        ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class, () -> waiting.get(30, TimeUnit.SECONDS));
        assertThat(failure.getCause()).isInstanceOf(LockException.class).hasMessageContaining("shut down");
        assertThat(engine.heldCount()).isZero();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> backend.acquire(Acquisition.of("remote", "third-instance", 1_000))
                        .isAcquired());
    }
}
