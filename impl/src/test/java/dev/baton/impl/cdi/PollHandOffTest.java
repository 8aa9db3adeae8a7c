package dev.baton.impl.cdi;

import static dev.baton.impl.testing.HandOffs.assertBoundedBy;

import dev.baton.Synchronized;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.Engines;
import dev.baton.impl.testing.HandOffs;
import dev.baton.impl.testing.HandOffs.PollOnlyStore;
import dev.baton.impl.testing.WithConfig;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.concurrent.ScheduledExecutorService;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @Synchronized} methods wait with their poll policy: a named manager's configured one, the
 * annotation's, or a configuration override's. Another instance (an engine of its own on the same store,
 * which neither notifies releases nor keeps turns) holds the key; the method gets it soon after the release
 * only when its maximum poll interval is short.
 */
@BatonTest
@AddBeanClasses({PollHandOffTest.Stores.class, PollHandOffTest.Seats.class})
@WithConfig({
    "baton.managers=fast",
    "baton.fast.poll-min-interval=1ms",
    "baton.fast.poll-max-interval=20ms",
    "dev.baton.impl.cdi.PollHandOffTest$Seats/overridden/Synchronized/pollMaxInterval=20ms"
})
class PollHandOffTest {

    private static final MemoryLockStore MEMORY = new MemoryLockStore();
    private static final ScheduledExecutorService SCHEDULER = Engines.scheduler();
    /** The other instance. */
    private static final LockEngine OTHER = Engines.engine(new PollOnlyStore(MEMORY), SCHEDULER, 30_000, 10_000);

    private static final int ROUNDS = 8;
    private static final long BOUND_MILLIS = 100;

    public static class Stores {
        @Produces
        @Singleton
        LockStore store() {
            return new PollOnlyStore(MEMORY);
        }

        @Produces
        @Singleton
        @Named("fast")
        LockStore fast() {
            return new PollOnlyStore(MEMORY);
        }
    }

    @ApplicationScoped
    public static class Seats {
        @Synchronized(value = "seat:fast", manager = "fast")
        public void fast() {}

        @Synchronized(value = "seat:tuned", pollMinInterval = "1ms", pollMaxInterval = "20ms")
        public void tuned() {}

        @Synchronized("seat:overridden")
        public void overridden() {}
    }

    @Inject
    Seats seats;

    @AfterAll
    static void stop() {
        OTHER.close();
        SCHEDULER.shutdownNow();
    }

    @Test
    void aNamedManagersConfiguredPolicy() throws Exception {
        assertShortHandOffs("seat:fast", seats::fast);
    }

    @Test
    void theAnnotationsPolicy() throws Exception {
        assertShortHandOffs("seat:tuned", seats::tuned);
    }

    @Test
    void aConfigurationOverridesPolicy() throws Exception {
        assertShortHandOffs("seat:overridden", seats::overridden);
    }

    /** {@code method} returns as soon as it has run under the key, so the lock needs no further release. */
    private static void assertShortHandOffs(String key, Runnable method) throws Exception {
        assertBoundedBy(
                HandOffs.measure(OTHER, key, ROUNDS, 300, () -> {
                    method.run();
                    return () -> {};
                }),
                BOUND_MILLIS);
    }
}
