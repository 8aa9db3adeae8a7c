package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.LockStore;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Stopping the application releases every lock it still holds. */
class ShutdownTest {

    static final MemoryLockStore SHARED = new MemoryLockStore();

    public static class SharedStore {
        @Produces
        @Singleton
        LockStore store() {
            return SHARED;
        }
    }

    @AfterEach
    void clean() {
        TestConfig.uninstall();
    }

    @Test
    void locksStillHeldAtShutdownAreReleased() {
        TestConfig.install();
        try (WeldContainer container = Deployments.weld(SharedStore.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            locks.acquire("left-open-1");
            locks.acquire("left-open-2");
            assertThat(SHARED.acquire("left-open-1", "other-instance", 1_000).isAcquired()).isFalse();
        }
        assertThat(SHARED.acquire("left-open-1", "other-instance", 1_000).isAcquired()).isTrue();
        assertThat(SHARED.acquire("left-open-2", "other-instance", 1_000).isAcquired()).isTrue();
    }
}
