package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** With a key prefix configured, an empty application key is still an empty key (§9), not the bare prefix. */
class PrefixedKeyTest {

    private final ScheduledExecutorService scheduler = Engines.scheduler();
    private final MemoryLockStore store = new MemoryLockStore();
    private final LockEngine engine = new LockEngine(
            new ManagerSettings("", Optional.empty(), 30_000, 1_000, "app:", 0, false),
            store,
            scheduler,
            Engines.STORE_CALLS,
            LockListener.NONE);

    @AfterEach
    void stop() {
        engine.close();
        scheduler.shutdownNow();
    }

    @Test
    void anEmptyKeyIsRejectedAlsoWithAPrefix() {
        assertThatThrownBy(() -> engine.acquire("", 30_000, 1_000, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be empty");
        assertThat(engine.heldCount()).isZero();
        assertThat(store.acquire("app:", "another-instance", 1_000).isAcquired())
                .as("the bare prefix was not locked")
                .isTrue();
        try (HeldLock lock = engine.acquire("k", 30_000, 1_000, true)) {
            assertThat(lock.key()).isEqualTo("k");
            assertThat(store.acquire("app:k", "another-instance", 1_000).isAcquired())
                    .isFalse();
        }
    }
}
