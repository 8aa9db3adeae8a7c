package dev.baton.impl.engine;

import static dev.baton.impl.testing.HandOffs.assertBoundedBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.LockOptions;
import dev.baton.Locks;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.HandOffs;
import dev.baton.impl.testing.HandOffs.PollOnlyStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two instances (two engines on one store that neither notifies releases nor keeps turns, so a waiter only
 * learns of a release by polling): the waiter's maximum poll interval bounds how late it takes a released key.
 */
class PollIntervalHandOffTest {

    private static final String KEY = "report";
    private static final int ROUNDS = 8;
    /** Five times the 20 ms maximum, for a loaded machine. */
    private static final long BOUND_MILLIS = 100;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final MemoryLockStore memory = new MemoryLockStore();
    private final LockEngine holder = engines.engine(new PollOnlyStore(memory), 30_000, 10_000);

    @AfterEach
    void stop() {
        memory.close();
    }

    private LockEngine waiterEngine(PollPolicy poll) {
        return engines.engine(new PollOnlyStore(memory))
                .ttl(30_000)
                .timeout(10_000)
                .poll(poll)
                .build();
    }

    @Test
    void aManagersShortMaximumIntervalBoundsTheHandOff() throws Exception {
        LockEngine waiter = waiterEngine(new PollPolicy(1, 20, 0.5));
        assertBoundedBy(
                HandOffs.measure(holder, KEY, ROUNDS, 300, () -> waiter.acquire(KEY, 30_000, 10_000, true)::close),
                BOUND_MILLIS);
    }

    @Test
    void aCallersShortMaximumIntervalOverridesTheManagersDefault() throws Exception {
        Locks locks = new EngineLocks(waiterEngine(PollPolicy.DEFAULT), name -> {
            throw new IllegalArgumentException(name);
        });
        LockOptions options = LockOptions.defaults().withPollInterval(Duration.ofMillis(1), Duration.ofMillis(20));
        assertBoundedBy(
                HandOffs.measure(holder, KEY, ROUNDS, 300, () -> {
                    Lock lock = locks.acquire(KEY, options);
                    return lock::close;
                }),
                BOUND_MILLIS);
    }

    @Test
    void theDefaultPolicyStillHandsOverWithinItsCeiling() throws Exception {
        LockEngine waiter = waiterEngine(PollPolicy.DEFAULT);
        // Held long enough for the backoff to reach its 500 ms ceiling.
        List<Long> delays =
                HandOffs.measure(holder, KEY, 3, 1_000, () -> waiter.acquire(KEY, 30_000, 10_000, true)::close);
        assertThat(delays)
                .as("hand-off delays in ms")
                .allSatisfy(d -> assertThat(d).isLessThan(500 + BOUND_MILLIS));
    }
}
