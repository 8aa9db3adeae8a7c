package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockLostException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A held lock makes its {@code whenLost()} and work-ended futures only when someone first asks for them. Asked
 * for by one thread while another signals the loss (or ends the work), the future is still completed: the two
 * threads start together from a barrier, many rounds over, in both orders by chance.
 */
class LazyStagesTest {

    private static final int ROUNDS = 5_000;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        other.shutdownNow();
    }

    @Test
    void whenLostAskedWhileTheLossIsSignalledCompletes() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore()).ttl(60_000).build();
        CyclicBarrier start = new CyclicBarrier(2);
        for (int round = 0; round < ROUNDS; round++) {
            HeldLock lock = engine.acquire("lost-" + round, 60_000, 1_000, false);
            Future<?> signal = other.submit(() -> {
                start.await();
                assertThat(lock.lose("forced by the test", null, false)).isTrue();
                lock.signalLost();
                return null;
            });
            start.await();
            CompletionStage<LockLostException> stage = lock.whenLost();
            signal.get(10, TimeUnit.SECONDS);
            CompletableFuture<LockLostException> seen = stage.toCompletableFuture();
            assertThat(seen.isDone())
                    .as("round %d: whenLost() asked during the signal is complete after it", round)
                    .isTrue();
            assertThat(seen.join()).isSameAs(lock.lossReason());
            assertThat(lock.whenLost().toCompletableFuture().isDone())
                    .as("round %d: asked again after the signal", round)
                    .isTrue();
            lock.release();
        }
    }

    @Test
    void theEndOfTheWorkAskedForWhileTheLockIsReleasedCompletes() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore()).ttl(60_000).build();
        CyclicBarrier start = new CyclicBarrier(2);
        for (int round = 0; round < ROUNDS; round++) {
            HeldLock lock = engine.acquire("ended-" + round, 60_000, 1_000, false);
            Future<?> release = other.submit(() -> {
                start.await();
                assertThat(lock.release()).isTrue();
                return null;
            });
            start.await();
            CompletableFuture<Void> ended = lock.ended();
            release.get(10, TimeUnit.SECONDS);
            assertThat(ended.isDone())
                    .as("round %d: the end of the work asked for during the release is complete after it", round)
                    .isTrue();
            assertThat(lock.ended().isDone()).as("round %d: asked again", round).isTrue();
        }
    }

    @Test
    void aLockNobodyAsksAboutIsToldOfItsLossAllTheSame() throws Exception {
        LockEngine engine = engines.engine(new MemoryLockStore()).ttl(60_000).build();
        HeldLock lock = engine.acquire("unasked", 60_000, 1_000, false);
        assertThat(lock.lose("forced by the test", null, false)).isTrue();
        assertThat(lock.lossUntold()).as("lost, not told yet").isTrue();
        lock.signalLost();
        assertThat(lock.lossUntold()).as("told, with no future made").isFalse();
        assertThat(lock.whenLost().toCompletableFuture().getNow(null))
                .as("asked only afterwards")
                .isSameAs(lock.lossReason());
    }
}
