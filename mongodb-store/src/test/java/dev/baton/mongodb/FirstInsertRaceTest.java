package dev.baton.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.mongodb.testing.TestMongo;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * Many threads, each with a store instance of its own (as many processes), acquire a key that has no document yet at
 * the same moment, round after round with a new key: they race to create the document, and the losers' upserts fail
 * with duplicate key errors. Each round has exactly one winner, and no caller sees an exception.
 */
class FirstInsertRaceTest {

    private static final int RACERS = 8;
    private static final int ROUNDS = 60;

    @Test
    void exactlyOneCallerCreatesAFreshKeyAndTheOthersAreRefusedWithoutAnError() throws Exception {
        List<MongoLockStore> stores = new ArrayList<>();
        for (int i = 0; i < RACERS; i++) {
            stores.add(TestMongo.store("first_insert"));
        }
        String prefix = "first-insert:" + UUID.randomUUID() + ":";
        AcquireResult[][] results = new AcquireResult[ROUNDS][RACERS];
        CyclicBarrier barrier = new CyclicBarrier(RACERS);
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            List<Future<?>> racers = new ArrayList<>();
            for (int r = 0; r < RACERS; r++) {
                int racer = r;
                racers.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        barrier.await(30, TimeUnit.SECONDS);
                        results[round][racer] =
                                stores.get(racer).acquire(Acquisition.of(prefix + round, "owner-" + racer, 60_000));
                    }
                    return null;
                }));
            }
            for (Future<?> racer : racers) {
                racer.get(120, TimeUnit.SECONDS); // an exception of any caller fails here
            }
        } finally {
            pool.shutdownNow();
            stores.forEach(MongoLockStore::close);
        }
        for (int round = 0; round < ROUNDS; round++) {
            int winner = -1;
            for (int racer = 0; racer < RACERS; racer++) {
                if (results[round][racer].isAcquired()) {
                    assertThat(winner)
                            .as("round %d: a second winner, racer %d", round, racer)
                            .isEqualTo(-1);
                    winner = racer;
                }
            }
            assertThat(winner).as("round %d: a winner", round).isNotEqualTo(-1);
            Document document = TestMongo.collection("first_insert")
                    .find(new Document("_id", prefix + round))
                    .first();
            assertThat(document.getString("o"))
                    .as("round %d: the document's owner is the winner", round)
                    .isEqualTo("owner-" + winner);
            for (int racer = 0; racer < RACERS; racer++) {
                if (racer != winner) {
                    assertThat(results[round][racer].remainingLeaseMillis())
                            .as("round %d, loser %d: refused with the winner's remaining lease", round, racer)
                            .isPresent();
                }
            }
        }
    }
}
