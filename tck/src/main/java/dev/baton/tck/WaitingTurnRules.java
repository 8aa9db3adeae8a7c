package dev.baton.tck;

import static dev.baton.tck.ContractSupport.describe;
import static dev.baton.tck.ContractSupport.newOwner;
import static dev.baton.tck.ContractSupport.pause;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link StoreCapability#WAITING_TURNS}, run only for stores that declare it: a key's turn belongs to
 * its longest waiter, keeps a freed key for that waiter while it lasts, is cleared when its waiter takes the key or
 * leaves, and expires by itself; and turns never weaken exclusion.
 *
 * <p>Run by {@link LockStoreContract.WaitingTurns}, tagged {@value ContractTags#TURNS}.
 */
abstract class WaitingTurnRules extends ContractRules {

    /** A turn that outlives every test, in ms. */
    private static final long LONG_KEEP = 60_000;

    @BeforeEach
    void onlyWhereDeclared() {
        assumeCapability(StoreCapability.WAITING_TURNS);
    }

    private static Turn turn(String waiter, long waitedMillis, long keepMillis) {
        return new Turn(waiter, waitedMillis, keepMillis);
    }

    private AcquireResult poll(String key, String waiter, long waitedMillis, long keepMillis) {
        return store().acquire(new Acquisition(key, newOwner(), LONG_TTL, 0, turn(waiter, waitedMillis, keepMillis)));
    }

    private long held(String key, String owner) {
        AcquireResult result = store().acquire(Acquisition.of(key, owner, LONG_TTL));
        assertThat(result.isAcquired())
                .as("%s is free at the start", describe(key))
                .isTrue();
        return result.fencingToken();
    }

    @Test
    @TckRule(id = "S-5.2-01", spec = "spec-store-turns-free-key")
    void aFreeKeyIsTakenByAWaiterAtOnce() {
        AcquireResult result = poll(key("free"), newOwner(), 0, LONG_KEEP);

        assertThat(result.isAcquired())
                .as("a free key with no turn is taken: %s", result)
                .isTrue();
        assertThat(result.fencingToken()).as("the fencing token of %s", result).isPositive();
    }

    @Test
    @TckRule(id = "S-5.2-02", spec = "spec-store-turns-first-waiter")
    void theFirstWaiterOfAHeldKeyTakesItsTurnAndALaterOneDoesNot() {
        String key = key("held");
        held(key, newOwner());

        assertInTurn(poll(key, "w1", 100, LONG_KEEP), "the first waiter", key);
        assertRefusedWithoutTurn(poll(key, "w2", 0, LONG_KEEP), "a waiter that has waited less long", key);
        assertInTurn(poll(key, "w1", 200, LONG_KEEP), "the first waiter, asking again", key);
    }

    @Test
    @TckRule(id = "S-5.2-03", spec = "spec-store-turns-kept-key")
    void aLiveTurnKeepsAFreedKeyForItsWaiter() {
        String key = key("kept");
        String holder = newOwner();
        long first = held(key, holder);
        assertInTurn(poll(key, "w1", 100, LONG_KEEP), "the waiter", key);
        assertThat(store().renew(Renewal.of(key, holder, LONG_TTL)))
                .as("a turn does not hinder the holder's renewal")
                .isTrue();
        assertThat(store().release(key, holder))
                .as("a turn does not hinder the holder's release")
                .isTrue();

        AcquireResult plain = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL));
        assertThat(plain.isAcquired())
                .as("a plain acquire must leave a freed key to the waiter whose turn it is: %s", plain)
                .isFalse();
        AcquireResult plainBounded = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL, 0));
        assertThat(plainBounded.isAcquired())
                .as("nor may a bounded plain acquire take it: %s", plainBounded)
                .isFalse();
        assertRefusedWithoutTurn(poll(key, "w2", 0, LONG_KEEP), "a waiter that has waited less long", key);

        AcquireResult taken = poll(key, "w1", 300, LONG_KEEP);
        assertThat(taken.isAcquired())
                .as("the waiter whose turn it is takes the freed key: %s", taken)
                .isTrue();
        assertThat(taken.fencingToken())
                .as("its token is above the previous holder's")
                .isGreaterThan(first);
    }

    @Test
    @TckRule(id = "S-5.2-04", spec = "spec-store-turns-cleared")
    void takingTheKeyClearsTheTurn() {
        String key = key("cleared");
        String holder = newOwner();
        held(key, holder);
        assertInTurn(poll(key, "w1", 100, LONG_KEEP), "the waiter", key);
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();
        String waiterOwner = newOwner();
        AcquireResult taken =
                store().acquire(new Acquisition(key, waiterOwner, LONG_TTL, 0, turn("w1", 200, LONG_KEEP)));
        assertThat(taken.isAcquired()).as("the waiter takes the key").isTrue();
        assertThat(store().release(key, waiterOwner))
                .as("store.release(key, waiterOwner) must answer true")
                .isTrue();

        AcquireResult next = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL));
        assertThat(next.isAcquired())
                .as("once its waiter took the key the turn is gone: the next acquire takes it: %s", next)
                .isTrue();
    }

    @Test
    @TckRule(id = "S-5.2-05", spec = "spec-store-turns-first-waiter")
    void aWaiterThatWaitedLongerTakesTheTurn() {
        String key = key("older");
        String holder = newOwner();
        held(key, holder);
        assertInTurn(poll(key, "young", 10, LONG_KEEP), "the first waiter", key);
        assertInTurn(poll(key, "old", 10 * LONG_KEEP, LONG_KEEP), "a waiter that has waited far longer", key);
        assertRefusedWithoutTurn(poll(key, "young", 20, LONG_KEEP), "the waiter that lost the turn", key);
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();

        assertRefusedWithoutTurn(poll(key, "young", 30, LONG_KEEP), "the younger waiter, on the freed key", key);
        AcquireResult taken = poll(key, "old", 10 * LONG_KEEP, LONG_KEEP);
        assertThat(taken.isAcquired())
                .as("the longest waiter takes the freed key: %s", taken)
                .isTrue();
    }

    @Test
    @TckRule(id = "S-5.2-06", spec = "spec-store-turns-kept-key")
    void anOlderWaiterTakesAFreedKeyFromAYoungerTurn() {
        String key = key("older-free");
        String holder = newOwner();
        held(key, holder);
        assertInTurn(poll(key, "young", 10, LONG_KEEP), "the first waiter", key);
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();

        AcquireResult taken = poll(key, "old", 10 * LONG_KEEP, LONG_KEEP);
        assertThat(taken.isAcquired())
                .as("a waiter that has waited longer than the turn's waiter takes the freed key: %s", taken)
                .isTrue();
    }

    @Test
    @TckRule(id = "S-5.2-07", spec = "spec-store-turns-expiry")
    void anExpiredTurnHoldsNobodyUp() {
        String key = key("expired");
        String holder = newOwner();
        held(key, holder);
        long keep = 50;
        assertInTurn(poll(key, "gone", 100, keep), "a waiter that will not come back", key);
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();
        pause(Duration.ofMillis(keep).plus(scaled(150)));

        AcquireResult next = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL));
        assertThat(next.isAcquired())
                .as("once a turn has expired, a plain acquire takes the free key: %s", next)
                .isTrue();
    }

    @Test
    @TckRule(id = "S-5.2-08", spec = "spec-store-turns-leave")
    void leaveTurnFreesOnlyItsWaitersTurn() {
        String key = key("leave");
        String holder = newOwner();
        held(key, holder);
        assertInTurn(poll(key, "w1", 100, LONG_KEEP), "the waiter", key);

        assertThat(store().leaveTurn(key, "w2"))
                .as("leaveTurn by a waiter without the turn")
                .isFalse();
        assertThat(store().leaveTurn(key("other"), "w1"))
                .as("leaveTurn on another key")
                .isFalse();
        assertThat(store().release(key, holder))
                .as("store.release(key, holder) must answer true")
                .isTrue();
        assertThat(store().acquire(Acquisition.of(key, newOwner(), LONG_TTL)).isAcquired())
                .as("the turn is still w1's")
                .isFalse();
        assertThat(store().leaveTurn(key, "w1"))
                .as("leaveTurn by the waiter whose turn it is")
                .isTrue();
        assertThat(store().leaveTurn(key, "w1")).as("a second leaveTurn").isFalse();

        AcquireResult next = store().acquire(Acquisition.of(key, newOwner(), LONG_TTL));
        assertThat(next.isAcquired())
                .as("after its waiter left, the free key is taken by the next acquire: %s", next)
                .isTrue();
    }

    /**
     * Waiters with turns racing for one key from many threads: never two holders at once, tokens only
     * grow, and every waiter gets through (a turn whose waiter is elsewhere never blocks a key for good).
     */
    @Test
    @TckRule(id = "S-5.2-10", spec = "spec-store-turns-exclusion")
    void turnsNeverLetTwoHoldersIn() throws Exception {
        String key = key("race");
        int threads = 8;
        int roundsEach = 25;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads, ContractSupport.daemonThreads("tck-turns"));
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String waiter = "racer-" + t + "-" + ContractSupport.randomHex(4);
                futures.add(pool.submit(() -> {
                    for (int round = 0; round < roundsEach; round++) {
                        long began = System.nanoTime();
                        String owner = newOwner();
                        while (true) {
                            long waited = (System.nanoTime() - began) / 1_000_000;
                            AcquireResult result = store().acquire(
                                            new Acquisition(key, owner, LONG_TTL, 0, turn(waiter, waited, 2_000)));
                            if (result.isAcquired()) {
                                if (inside.incrementAndGet() != 1) {
                                    overlaps.incrementAndGet();
                                }
                                synchronized (tokens) {
                                    tokens.add(result.fencingToken());
                                }
                                pause(Duration.ofMillis(1)); // a moment inside, for another holder to show up in
                                inside.decrementAndGet();
                                assertThat(store().release(key, owner))
                                        .as("the holder releases its own lock")
                                        .isTrue();
                                break;
                            }
                            pause(Duration.ofMillis(result.isNextInTurn() ? 1 : 3));
                        }
                    }
                    return null;
                }));
            }
            ContractSupport.awaitAll(futures, scaled(120_000));
        } finally {
            pool.shutdownNow();
        }
        assertThat(overlaps.get())
                .as("acquisitions that found another holder inside")
                .isZero();
        assertThat(tokens).as("every round of every waiter got the key").hasSize(threads * roundsEach);
        for (int i = 1; i < tokens.size(); i++) {
            assertThat(tokens.get(i))
                    .as("token #%d of %s, in the order the key was held", i + 1, describe(key))
                    .isGreaterThan(tokens.get(i - 1));
        }
    }
}
