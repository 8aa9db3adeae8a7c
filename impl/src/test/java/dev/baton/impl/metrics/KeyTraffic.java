package dev.baton.impl.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Leadership;
import dev.baton.Lock;
import dev.baton.LockAlreadyHeldException;
import dev.baton.LockOptions;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Real lock traffic on keys that carry a marker, so that a test can look for the marker in every meter: every
 * outcome of an acquisition, waits, holds, renewals, a hand-over to a waiter, an inspection, a loss (a force
 * release) and an election. Needs {@code baton.admin.force-release=true} and a short ttl (renewals within 1 s).
 */
final class KeyTraffic {

    /** Text no meter name or fixed tag value holds: found in a meter, it came from a key. */
    static final String MARKER = "zq7xmarker";

    /** Keys as applications build them, each with the marker. */
    static final List<String> KEYS =
            List.of("customer:" + MARKER + "@example.com", "order:" + MARKER + "-42", "tenant:" + MARKER + ":invoice");

    private KeyTraffic() {}

    static void run(Locks locks) {
        for (String key : KEYS) {
            locks.runWithLock(
                    key,
                    lock -> assertThatThrownBy(() -> locks.tryAcquire(key))
                            .as("failed: not reentrant")
                            .isInstanceOf(LockAlreadyHeldException.class));
        }
        String key = KEYS.get(0);
        try (Lock held = locks.acquire(key)) {
            assertThat(other(() -> locks.tryAcquire(key)))
                    .as("timed out, not waiting")
                    .isEmpty();
            assertThatThrownBy(() -> other(
                            () -> locks.acquire(key, LockOptions.defaults().withTimeout(Duration.ofMillis(30)))))
                    .as("timed out, waiting")
                    .isInstanceOf(LockTimeoutException.class);
            assertThat(locks.inspect(key)).isPresent();
        }
        // a waiter the holder hands the key over to
        Lock first = locks.acquire(KEYS.get(1));
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> locks.runWithLock(KEYS.get(1), lock -> {}));
        sleep(100);
        first.close();
        waiter.orTimeout(10, TimeUnit.SECONDS).join();
        // held past its renewals, then freed by force: renewals, and a loss when the holder learns of it
        Lock renewed = locks.acquire(KEYS.get(2), LockOptions.defaults().withTtl(Duration.ofMillis(300)));
        sleep(450);
        assertThat(locks.forceRelease(KEYS.get(2))).isTrue();
        renewed.whenLost().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
        renewed.close();
        try (Leadership leadership = locks.lead("election:" + MARKER)) {
            leadership
                    .whenGranted()
                    .toCompletableFuture()
                    .orTimeout(10, TimeUnit.SECONDS)
                    .join();
        }
    }

    /** @return what {@code call} returned on another thread (a lock is held by its thread) */
    private static <T> T other(java.util.function.Supplier<T> call) {
        try {
            return CompletableFuture.supplyAsync(call)
                    .orTimeout(10, TimeUnit.SECONDS)
                    .join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
