package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The moment of a hand-off on a store with turns, on virtual time: a waiter that has waited long finds the
 * key free but kept for another waiter's turn. That waiter takes the key within a round trip, and the turn
 * is then free: whoever asks first after the take gets it, and that is the instance which has just released
 * the key, asking again at once. So the long waiter must ask again at once too (and is then the oldest
 * claimant), not after its backed-off pause, by which time the releasing instance has the turn and then the
 * key, round after round (the unfairness of issue 13's fairness probe).
 */
class TurnHandOffTest {

    private static final int ROUNDS = 10;
    /** Answers of a held key (another waiter's turn) before each hand-off: enough to back off fully. */
    private static final int HELD_ANSWERS = 8;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private final VirtualTime time = engines.time();

    @Test
    void aLongWaiterThatFindsTheKeyKeptForAnotherTurnAsksAgainWithinTheHandOff() throws Exception {
        List<AcquireResult> script = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < HELD_ANSWERS; i++) {
                script.add(AcquireResult.notAcquired(30_000)); // held, the turn another's
            }
            script.add(AcquireResult.notAcquired()); // free, kept for another waiter's turn
        }
        script.add(AcquireResult.acquired(1));
        List<Long> asks = run(script);

        for (int round = 0; round < ROUNDS; round++) {
            int kept = round * (HELD_ANSWERS + 1) + HELD_ANSWERS;
            assertThat(asks.get(kept) - asks.get(kept - 1))
                    .as("round %d: µs between two asks of a held key, backed off", round)
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toMicros(Polling.MAX_WITH_TURNS_MILLIS) / 2);
            assertThat(asks.get(kept + 1) - asks.get(kept))
                    .as("round %d: µs from finding the key kept for another's turn to the next ask", round)
                    .isLessThanOrEqualTo(TimeUnit.NANOSECONDS.toMicros(Polling.CHASE_NANOS));
        }
    }

    @Test
    void aWaiterThatFindsTheKeyFreeAsksOnceAndWithoutATurn() throws Exception {
        Scripted store = new Scripted(List.of(AcquireResult.acquired(1)), time);
        run(store);
        assertThat(store.turns)
                .as("a free key needs no turn, and the statement that claims one costs more")
                .containsExactly("none");
    }

    @Test
    void aWaiterRefusedAtItsFirstAskAsksAgainAtOnceWithItsTurnAndKeepsIt() throws Exception {
        Scripted store = new Scripted(
                List.of(
                        AcquireResult.notAcquired(30_000), // held
                        AcquireResult.nextInTurn(30_000), // still held, the turn now this waiter's
                        AcquireResult.nextInTurn(30_000),
                        AcquireResult.acquired(2)),
                time);
        List<Long> asks = run(store);
        assertThat(store.turns.get(0)).as("the first ask").isEqualTo("none");
        assertThat(store.turns.subList(1, 4))
                .as("every later ask carries the same turn")
                .doesNotContain("none")
                .containsOnly(store.turns.get(1));
        assertThat(asks.get(1) - asks.get(0))
                .as("virtual µs from the first refusal to the ask with the turn: none, it is in line at once")
                .isZero();
        assertThat(asks.get(2) - asks.get(1))
                .as("then the waiter pauses as before, from the policy's first step")
                .isPositive();
    }

    /** One waiter asks a store answering {@code script} in order; returns the virtual µs of every ask. */
    private List<Long> run(List<AcquireResult> script) throws Exception {
        return run(new Scripted(script, time));
    }

    /** One waiter asks {@code store}; returns the virtual µs of every ask. */
    private List<Long> run(Scripted store) throws Exception {
        int expectedAsks = store.answers.size();
        LockEngine engine = engines.engine(store, 30_000, 60_000);
        CompletableFuture<HeldLock> waiter =
                CompletableFuture.supplyAsync(() -> engine.acquire("job", 30_000, 60_000, true));
        for (int parks = 1; !waiter.isDone(); parks++) {
            int expected = parks;
            VirtualTime.awaitReal(() -> time.waits() >= expected || waiter.isDone(), "the waiter's park " + expected);
            if (!waiter.isDone()) {
                time.advanceToNext();
            }
        }
        waiter.get(10, TimeUnit.SECONDS).close();
        assertThat(store.asks).as("asks of the store").hasSize(expectedAsks);
        return store.asks;
    }

    /** A store with turns that answers as told, noting the virtual time of every ask. */
    private static final class Scripted implements LockStore {

        private final List<AcquireResult> answers;
        private final VirtualTime time;
        final List<Long> asks = new CopyOnWriteArrayList<>();

        Scripted(List<AcquireResult> answers, VirtualTime time) {
            this.answers = new ArrayList<>(answers);
            this.time = time;
        }

        /** The turn's waiter id of every ask, "none" for an ask without one. */
        final List<String> turns = new CopyOnWriteArrayList<>();

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            asks.add(TimeUnit.NANOSECONDS.toMicros(time.nanoTime()));
            turns.add(acquisition.turn() == null ? "none" : acquisition.turn().waiter());
            return answers.remove(0);
        }

        @Override
        public boolean renew(Renewal renewal) {
            return true;
        }

        @Override
        public boolean release(String key, String owner) {
            return true;
        }

        @Override
        public Set<StoreCapability> capabilities() {
            return Set.of(StoreCapability.WAITING_TURNS, StoreCapability.REMAINING_LEASE);
        }
    }
}
