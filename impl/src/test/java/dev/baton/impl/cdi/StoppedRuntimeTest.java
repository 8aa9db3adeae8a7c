package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockException;
import dev.baton.Locks;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A lock manager used for the first time while the application stops (another bean's {@code @PreDestroy},
 * a request still running) must not start an engine after the runtime released everything: nobody would
 * ever release its locks or close its store.
 */
class StoppedRuntimeTest {

    static final MemoryLockStore REPORTS = new MemoryLockStore();

    public static class ReportsStore {
        @Produces
        @Singleton
        @Named("reports")
        LockStore store() {
            return REPORTS;
        }
    }

    @AfterEach
    void clean() {
        TestConfig.uninstall();
    }

    @Test
    void aManagerFirstUsedAfterTheRuntimeStoppedIsNotStarted() {
        // The default manager on memory (explicitly: its only bean is named after the manager reports).
        TestConfig.install("baton.store=memory", "baton.managers=reports");
        try (WeldContainer container = Deployments.weld(ReportsStore.class).initialize()) {
            LockRuntime runtime = container.select(LockRuntime.class).get();
            Locks locks = container.select(Locks.class).get();
            locks.acquire("default-key");
            runtime.stop(); // what the container does at shutdown

            assertThatThrownBy(() -> runtime.locks("reports").acquire("monthly"))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("shut down");
            assertThat(REPORTS.acquire(Acquisition.of("monthly", "other-instance", 1_000))
                            .isAcquired())
                    .as("no lock was left in the store")
                    .isTrue();
        }
    }
}
