package dev.baton.impl.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/**
 * A store shared by several managers' engines is closed once, after the last engine stopped: an engine
 * that stops first must not close it under the others, whose locks are still to be released.
 */
class SharedStoreTest {

    /** A memory store that records its releases and closes in order. */
    static final class RecordingStore implements LockStore {
        private final MemoryLockStore memory = new MemoryLockStore();
        final List<String> calls = new ArrayList<>();

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            return memory.acquire(acquisition);
        }

        @Override
        public boolean renew(Renewal renewal) {
            return memory.renew(renewal);
        }

        @Override
        public synchronized boolean release(String key, String owner) {
            calls.add((calls.contains("close") ? "after close: " : "") + "release " + key);
            return memory.release(key, owner);
        }

        @Override
        public synchronized void close() {
            calls.add("close");
            memory.close();
        }
    }

    @Test
    void theStoreIsClosedOnceAfterTheLastEngineThatUsesIt() {
        RecordingStore store = new RecordingStore();
        SharedStore shared = new SharedStore(store, true);
        ScheduledExecutorService scheduler = Engines.scheduler();
        try {
            LockEngine defaultEngine = engine("", shared.handle(), scheduler);
            LockEngine reports = engine("reports", shared.handle(), scheduler);
            HeldLock a = defaultEngine.acquire("a", 10_000, 0, false);
            HeldLock b = reports.acquire("b", 10_000, 0, false);

            a.close();
            defaultEngine.close();
            assertThat(store.calls).as("after the first engine stopped").containsExactly("release a");
            assertThat(shared.closed()).isFalse();
            b.close();
            reports.close();
            reports.close();
            assertThat(store.calls)
                    .as("after the last engine stopped")
                    .containsExactly("release a", "release b", "close");
            assertThat(shared.closed()).isTrue();
            assertThatThrownBy(shared::handle).isInstanceOf(IllegalStateException.class);
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void anApplicationsBeanIsNeverClosedByBaton() {
        RecordingStore store = new RecordingStore();
        SharedStore shared = new SharedStore(store, false);
        LockStore first = shared.handle();
        LockStore second = shared.handle();
        first.close();
        second.close();
        assertThat(store.calls).doesNotContain("close");
        assertThat(shared.closed()).isTrue();
    }

    private static LockEngine engine(String name, LockStore store, ScheduledExecutorService scheduler) {
        ManagerSettings settings = new ManagerSettings(name, Optional.empty(), 10_000, 1_000, "", 0, false);
        return new LockEngine(settings, store, scheduler, Engines.STORE_CALLS, LockListener.NONE);
    }
}
