package dev.baton.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.baton.Lock;
import dev.baton.LockLostException;
import dev.baton.LockOptions;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@BatonTest
class LocksApiTest {

    @Inject
    Locks locks;

    @Test
    void badKeysAreRejectedWithAClearMessage() {
        assertThatThrownBy(() -> locks.acquire(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("null");
        assertThatThrownBy(() -> locks.acquire(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> locks.acquire("x".repeat(501)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("501 chars")
                .hasMessageContaining("at most 500");
        assertThatThrownBy(() -> locks.acquire("bad\uD800key"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lone high surrogate at index 3");
        assertThatThrownBy(() -> locks.acquire("bad\uDC00"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lone low surrogate");
        assertThatThrownBy(() -> locks.tryAcquire("")).isInstanceOf(IllegalArgumentException.class);
        try (Lock lock = locks.acquire("x".repeat(500))) {
            assertThat(lock.isHeld()).isTrue();
        }
        try (Lock lock = locks.acquire("emoji \uD83D\uDE00")) {
            assertThat(lock.key()).isEqualTo("emoji \uD83D\uDE00");
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1})
    void nonPositiveDurationsAreRejected(long millis) {
        assertThatThrownBy(() -> LockOptions.defaults().withTtl(Duration.ofMillis(millis)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttl must be positive");
        assertThatThrownBy(() -> LockOptions.defaults().withTimeout(Duration.ofMillis(millis)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout must be positive");
    }

    @Test
    void badPollSettingsAreRejectedWithAClearMessage() {
        LockOptions options = LockOptions.defaults();
        assertThatThrownBy(() -> options.withPollInterval(Duration.ZERO, Duration.ofMillis(20)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("poll min interval must be positive");
        assertThatThrownBy(() -> options.withPollInterval(Duration.ofMillis(5), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("poll max interval must be positive");
        assertThatThrownBy(() -> options.withPollInterval(Duration.ofMillis(50), Duration.ofMillis(20)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "poll max interval (PT0.02S) must not be shorter than the poll min interval (PT0.05S)");
        assertThatThrownBy(() -> options.withPollInterval(Duration.ofNanos(1_500_000), Duration.ofMillis(20)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whole milliseconds");
        for (double bad : new double[] {-0.1, 1.01, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> options.withPollJitter(bad))
                    .as("jitter %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("poll jitter must be from 0 to 1, was " + bad);
        }
        LockOptions set = options.withPollInterval(Duration.ofMillis(2), Duration.ofMillis(20))
                .withPollJitter(0)
                .withTtl(Duration.ofSeconds(5));
        assertThat(set.pollMinInterval()).contains(Duration.ofMillis(2));
        assertThat(set.pollMaxInterval()).contains(Duration.ofMillis(20));
        assertThat(set.pollJitter()).hasValue(0.0);
        assertThat(set)
                .isEqualTo(options.withTtl(Duration.ofSeconds(5))
                        .withPollJitter(0)
                        .withPollInterval(Duration.ofMillis(2), Duration.ofMillis(20)));
        assertThat(set).isNotEqualTo(options.withTtl(Duration.ofSeconds(5)));
        assertThat(options.pollMinInterval()).isEmpty();
        assertThat(options.pollJitter()).isEmpty();
    }

    @Test
    void tooLongOrSubMillisecondDurationsAreRejected() {
        assertThatThrownBy(() -> LockOptions.defaults().withTtl(Duration.ofDays(366)))
                .hasMessageContaining("at most 365 days");
        assertThatThrownBy(() -> LockOptions.defaults().withTtl(Duration.ofNanos(1_500_000)))
                .hasMessageContaining("whole milliseconds");
        try (Lock lock = locks.acquire("month", LockOptions.defaults().withTtl(Duration.ofDays(30)))) {
            assertThat(lock.validUntil()).isAfter(java.time.Instant.now().plus(Duration.ofDays(29)));
        }
    }

    @Test
    void tryAcquireTriesOnce() {
        try (Lock held = locks.tryAcquire("once").orElseThrow()) {
            Thread other = new Thread(() -> assertThat(locks.tryAcquire("once")).isEmpty());
            other.start();
            join(other);
            assertThat(held.isHeld()).isTrue();
        }
    }

    @Test
    void callWithLockReleasesAfterTheWorkAndAlsoWhenItThrows() throws Exception {
        long token = locks.callWithLock("work", lock -> {
            assertThat(locks.current()).contains(lock);
            return lock.fencingToken();
        });
        assertThat(token).isPositive();
        assertThat(locks.current()).isEmpty();
        assertThatThrownBy(() -> locks.runWithLock("work", lock -> {
                    throw new IOException("disk full");
                }))
                .isInstanceOf(IOException.class)
                .hasMessage("disk full");
        assertThat(locks.<String>callWithLock("work", () -> "callable")).isEqualTo("callable");
        try (Lock lock = locks.tryAcquire("work").orElseThrow()) {
            assertThat(lock.fencingToken()).isGreaterThan(token);
        }
    }

    @Test
    void aReleasedLockIsNotHeldAndNotLost() {
        Lock lock = locks.acquire("done");
        assertThat(lock.release()).isTrue();
        assertThat(lock.release()).isFalse();
        lock.close();
        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.whenLost().toCompletableFuture().isDone()).isFalse();
        assertThatThrownBy(lock::checkHeld)
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("released");
    }

    private static void join(Thread thread) {
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void forceReleaseIsOffByDefaultAndSaysWhatToSet() {
        try (Lock lock = locks.acquire("kept")) {
            assertThatThrownBy(() -> locks.forceRelease("kept"))
                    .isInstanceOf(dev.baton.LockConfigurationException.class)
                    .hasMessageContaining("baton.admin.force-release=true");
            assertThat(lock.isHeld()).isTrue();
        }
    }

    @Test
    void withAwaitFalseFailsAtOnceWhileAnotherHolderHasTheKey() throws Exception {
        LockOptions once =
                LockOptions.defaults().withTimeout(Duration.ofSeconds(30)).withAwait(false);
        assertThat(once.await()).isFalse();
        assertThat(LockOptions.defaults().await()).isTrue();
        try (Lock held = locks.acquire("await-flag")) {
            // Acquired on another thread: this JVM's own holder would fail fast whatever the flag.
            var refused = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                long started = System.nanoTime();
                Throwable failure = catchThrowable(() -> locks.acquire("await-flag", once));
                return java.util.Map.entry(failure, Duration.ofNanos(System.nanoTime() - started));
            });
            var outcome = refused.get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(outcome.getKey()).isInstanceOf(dev.baton.LockTimeoutException.class);
            assertThat(outcome.getValue()).isLessThan(Duration.ofSeconds(10));
        }
    }
}
