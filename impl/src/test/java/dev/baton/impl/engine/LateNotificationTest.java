package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.spi.Acquisition;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store that learns its backend when it connects (the JPA store: PostgreSQL notifies, MariaDB does
 * not) declares release notifications only after its first operation. The engine must look again and
 * subscribe then, and a waiter must be woken by the notification rather than by its next poll.
 */
class LateNotificationTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    @Test
    void notificationsDeclaredAfterTheFirstOperationAreSubscribedToAndWakeTheWaiter() throws Exception {
        FaultyStore store = new FaultyStore();
        LockEngine engine = engines.engine(store, 30_000, 20_000);
        List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
        try {
            engine.acquire("warm-up", 30_000, 10_000, true).close(); // connected: now the store can notify
            // Held by another instance: the waiter asks the store, and subscribes at its first refusal.
            store.acquire(Acquisition.of("job", "another-instance", 30_000, 0));
            store.subscriber = listener -> {
                listeners.add(listener);
                return () -> listeners.remove(listener);
            };
            CountDownLatch waiting = new CountDownLatch(1);
            CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
                waiting.countDown();
                try (HeldLock lock = engine.acquire("job", 30_000, 15_000, true)) {
                    return System.nanoTime();
                }
            });
            waiting.await();
            // Long enough for the waiter to subscribe and back off to its longest pause between polls.
            Thread.sleep(3_000);
            assertThat(listeners)
                    .as("the engine subscribed once the store offered notifications")
                    .hasSize(1);

            long released = System.nanoTime();
            store.release("job", "another-instance");
            listeners.forEach(listener -> listener.accept("job"));
            long acquired = waiter.get(30, TimeUnit.SECONDS);
            // Subscribed, the waiter in turn polls only every 125-250 ms: the notification must wake it before that.
            assertThat(TimeUnit.NANOSECONDS.toMillis(acquired - released))
                    .as("ms from the release to the waiter holding it")
                    .isLessThan(100);
        } finally {
            engine.close();
        }
        assertThat(listeners).as("the subscription is closed with the engine").isEmpty();
    }
}
