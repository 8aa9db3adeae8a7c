package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.LockStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Closing an engine (application stop) while a caller is inside the store's acquire, or waiting for a key:
 * the caller must not come out holding a lock of a closed engine, which nobody would ever release.
 */
class CloseWhileAcquiringTest {

    private final ScheduledExecutorService scheduler = Engines.scheduler();
    private final MemoryLockStore backend = new MemoryLockStore();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** The real memory store, whose acquire can be held inside the call until the test lets it go. */
    private final class GatedStore implements LockStore {
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);

        @Override
        public AcquireResult acquire(String key, String owner, long ttlMillis) {
            inside.countDown();
            try {
                proceed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return backend.acquire(key, owner, ttlMillis);
        }

        @Override
        public boolean renew(String key, String owner, long ttlMillis) {
            return backend.renew(key, owner, ttlMillis);
        }

        @Override
        public boolean release(String key, String owner) {
            return backend.release(key, owner);
        }
    }

    @Test
    void aLockWonWhileTheEngineClosesIsReleasedAndNotHandedOut() throws Exception {
        GatedStore store = new GatedStore();
        LockEngine engine = Engines.engine(store, scheduler, 30_000, 10_000);
        CompletableFuture<HeldLock> acquiring = CompletableFuture.supplyAsync(() -> engine.acquire("closing", 30_000, 10_000, true));
        assertThat(store.inside.await(30, TimeUnit.SECONDS)).isTrue();
        engine.close();
        store.proceed.countDown();

        ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> acquiring.get(30, TimeUnit.SECONDS));
        assertThat(failure.getCause()).isInstanceOf(LockException.class).hasMessageContaining("shut down");
        assertThat(engine.heldCount()).isZero();
        assertThat(backend.acquire("closing", "another-instance", 1_000).isAcquired())
                .as("the key is free in the store once the engine is closed").isTrue();
    }

    @Test
    void aWaiterDoesNotTakeTheKeyAfterTheEngineClosed() throws Exception {
        LockEngine engine = Engines.engine(backend, scheduler, 30_000, 10_000);
        // Another instance holds the key for a short while; our waiter polls for it.
        assertThat(backend.acquire("remote", "another-instance", 500).isAcquired()).isTrue();
        CompletableFuture<HeldLock> waiting = CompletableFuture.supplyAsync(() -> engine.acquire("remote", 30_000, 30_000, true));
        await().during(Duration.ofMillis(50)).until(() -> !waiting.isDone());
        engine.close();

        ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> waiting.get(30, TimeUnit.SECONDS));
        assertThat(failure.getCause()).isInstanceOf(LockException.class).hasMessageContaining("shut down");
        assertThat(engine.heldCount()).isZero();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> backend.acquire("remote", "third-instance", 1_000).isAcquired());
    }
}
