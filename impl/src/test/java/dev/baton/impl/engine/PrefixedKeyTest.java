package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.Acquisition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With a key prefix configured, an empty application key is still an empty key (the specification's
 * spec-model-key-invalid), not the bare prefix.
 */
class PrefixedKeyTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final MemoryLockStore store = new MemoryLockStore();
    private final LockEngine engine =
            engines.engine(store).ttl(30_000).timeout(1_000).prefix("app:").build();

    @Test
    void anEmptyKeyIsRejectedAlsoWithAPrefix() {
        assertThatThrownBy(() -> engine.acquire("", 30_000, 1_000, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be empty");
        assertThat(engine.heldCount()).isZero();
        assertThat(store.acquire(Acquisition.of("app:", "another-instance", 1_000))
                        .isAcquired())
                .as("the bare prefix was not locked")
                .isTrue();
        try (HeldLock lock = engine.acquire("k", 30_000, 1_000, true)) {
            assertThat(lock.key()).isEqualTo("k");
            assertThat(store.acquire(Acquisition.of("app:k", "another-instance", 1_000))
                            .isAcquired())
                    .isFalse();
        }
    }
}
