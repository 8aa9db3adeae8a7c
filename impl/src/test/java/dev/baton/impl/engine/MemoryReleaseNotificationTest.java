package dev.baton.impl.engine;

import static dev.baton.impl.testing.HandOffs.assertBoundedBy;

import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.HandOffs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two lock managers sharing one memory store (the fairness probe's instances): a release in one wakes the
 * other's waiter at once, instead of at its next poll (with a 50 ms minimum poll interval, up to 50 ms
 * later), so hand-offs do not stretch every short section by half a poll interval.
 */
class MemoryReleaseNotificationTest {

    private static final String KEY = "report";
    private static final int ROUNDS = 12;
    /** A sixth of the waiter in turn's 25–50 ms pause: a polled hand-off takes about 19 ms at the median. */
    private static final long BOUND_MILLIS = 8;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final MemoryLockStore memory = new MemoryLockStore();

    @AfterEach
    void stop() {
        memory.close();
    }

    @Test
    void aReleaseInOneManagerWakesTheOthersWaiterAtOnce() throws Exception {
        LockEngine holder = engines.engine(memory, 30_000, 10_000);
        // Slow polls, so that only a notification can make the hand-off quick.
        LockEngine waiter = engines.engine(memory)
                .ttl(30_000)
                .timeout(10_000)
                .poll(new PollPolicy(50, 500, 0.5))
                .build();
        assertBoundedBy(
                HandOffs.measure(holder, KEY, ROUNDS, 200, () -> waiter.acquire(KEY, 30_000, 10_000, true)::close),
                BOUND_MILLIS);
    }
}
