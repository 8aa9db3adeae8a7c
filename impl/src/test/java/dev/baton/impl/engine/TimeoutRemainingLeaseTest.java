package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.baton.LockTimeoutException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A {@link LockTimeoutException} says how long the holder keeps the key, when that is known (the 409's Retry-After). */
class TimeoutRemainingLeaseTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final MemoryLockStore store = new MemoryLockStore();
    private final LockEngine engine = engines.engine(store, 5_000, 1_000);

    @Test
    void theStoresReportOfTheHoldersLeaseCountedDownToTheTimeout() {
        LockEngine elsewhere = engines.engine(store, 5_000, 1_000);
        try {
            elsewhere.acquire("busy", 5_000, 1_000, true);

            LockTimeoutException timeout =
                    catchThrowableOfType(LockTimeoutException.class, () -> engine.acquire("busy", 5_000, 200, true));

            assertThat(timeout.getRemainingLease())
                    .hasValueSatisfying(
                            lease -> assertThat(lease).isPositive().isLessThanOrEqualTo(Duration.ofMillis(4_800)));
        } finally {
            elsewhere.close();
        }
    }

    @Test
    void aHolderOfThisJvmIsKnownWithoutTheStore() throws Exception {
        HeldLock held = CompletableFuture.supplyAsync(() -> engine.acquire("local", 5_000, 1_000, true))
                .get();

        LockTimeoutException timeout =
                catchThrowableOfType(LockTimeoutException.class, () -> engine.acquire("local", 5_000, 0, false));

        assertThat(timeout.getRemainingLease())
                .hasValueSatisfying(
                        lease -> assertThat(lease).isPositive().isLessThanOrEqualTo(Duration.ofMillis(5_000)));
        held.close();
    }

    @Test
    void unknownWhenTheStoreDoesNotTell() {
        ForwardingLockStore silent = new ForwardingLockStore(store) {
            @Override
            public Set<StoreCapability> capabilities() {
                return Set.of();
            }

            @Override
            public dev.baton.spi.AcquireResult acquire(Acquisition acquisition) {
                dev.baton.spi.AcquireResult result = super.acquire(acquisition);
                return result.isAcquired() ? result : dev.baton.spi.AcquireResult.notAcquired();
            }
        };
        LockEngine quiet = engines.engine(silent, 5_000, 1_000);
        LockEngine elsewhere = engines.engine(store, 5_000, 1_000);
        try {
            elsewhere.acquire("busy", 5_000, 1_000, true);

            LockTimeoutException timeout =
                    catchThrowableOfType(LockTimeoutException.class, () -> quiet.acquire("busy", 5_000, 100, true));

            assertThat(timeout.getRemainingLease()).isEmpty();
        } finally {
            quiet.close();
            elsewhere.close();
        }
    }
}
