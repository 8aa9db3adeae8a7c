package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
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
    void atShutdownLocksGivenBackOnLossAreReleasedAndLocksLeftOpenExpire() {
        TestConfig.install();
        try (WeldContainer container = Deployments.weld(SharedStore.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            for (String key : new String[] {"given-back-1", "given-back-2"}) {
                Lock lock = locks.acquire(key);
                lock.whenLost().thenRun(lock::close);
            }
            locks.acquire("left-open");
            assertThat(SHARED.acquire(Acquisition.of("given-back-1", "other-instance", 1_000))
                            .isAcquired())
                    .isFalse();
        }
        assertThat(SHARED.acquire(Acquisition.of("given-back-1", "other-instance", 1_000))
                        .isAcquired())
                .isTrue();
        assertThat(SHARED.acquire(Acquisition.of("given-back-2", "other-instance", 1_000))
                        .isAcquired())
                .isTrue();
        assertThat(SHARED.acquire(Acquisition.of("left-open", "other-instance", 1_000))
                        .isAcquired())
                .as("Baton cannot see whether its work has ended: left to expire")
                .isFalse();
    }
}
