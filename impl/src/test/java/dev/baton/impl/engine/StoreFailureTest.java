package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.ExclusionDetector;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.tck.Together;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A store that breaks its contract and throws an exception of its own (a driver's, a client's) instead of
 * a {@link LockStoreException}: callers still get the documented {@link LockStoreException}, with the
 * cause, and nothing is left behind locally.
 */
class StoreFailureTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final FaultyStore store = new FaultyStore();
    private final LockEngine engine = engines.engine(store, 30_000, 10_000);

    @Test
    void aForeignExceptionFromAcquireIsALockStoreExceptionAndLeavesNothingBehind() throws Exception {
        IllegalStateException driverFailure = new IllegalStateException("connection pool exhausted");
        store.acquireFailure = driverFailure;
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> engine.acquire("orders", 30_000, 1_000, true))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("'orders'")
                    .hasCause(driverFailure);
        }
        store.acquireFailure = null;

        ExclusionDetector detector = new ExclusionDetector();
        Together.run(4, t -> {
            for (int i = 0; i < 100; i++) {
                try (HeldLock lock = engine.acquire("orders", 30_000, 60_000, true)) {
                    detector.enter();
                    detector.exit();
                }
            }
        });
        assertThat(detector.maxInside()).isEqualTo(1);
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aForeignExceptionFromReleaseIsALockStoreException() {
        HeldLock lock = engine.acquire("invoices", 30_000, 1_000, true);
        UnsupportedOperationException clientFailure = new UnsupportedOperationException("client closed");
        store.releaseFailure = clientFailure;
        assertThatThrownBy(lock::release)
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("'invoices'")
                .hasCause(clientFailure);
        store.releaseFailure = null;
        assertThat(engine.heldCount()).isZero();
        try (HeldLock again = engine.acquire("invoices", 30_000, 1_000, false)) {
            assertThat(again.isHeld()).isTrue();
        }
    }

    @Test
    void aLockStoreExceptionIsPassedOnAsItIs() {
        LockStoreException down = new LockStoreException("acquire failed", new java.net.ConnectException("refused"));
        store.acquireFailure = down;
        assertThatThrownBy(() -> engine.acquire("payments", 30_000, 1_000, true))
                .isSameAs(down);
    }
}
