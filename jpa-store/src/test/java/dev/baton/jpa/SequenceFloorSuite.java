package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.spi.Turn;
import jakarta.persistence.EntityManagerFactory;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Table mode when the fencing sequence goes back under running stores ({@code ALTER SEQUENCE ... RESTART}, or
 * the database restored from an older backup): the key's row holds its last token, so an acquisition never
 * writes one at or below it, and never takes a key another holder has.
 */
@Tag("sequence")
public abstract class SequenceFloorSuite {

    private static final long TTL = 60_000;

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Test
    void aKeysTokensKeepGrowingAfterItsSequenceWasRestartedUnderARunningStore() {
        Backend backend = backend();
        String table = backend.tableName("floor");
        String key = "floor:" + UUID.randomUUID();
        String turnKey = "floor-turn:" + UUID.randomUUID();
        try (JpaLockStore store = backend.store(table)) {
            long last = 0;
            long lastTurn = 0;
            for (int round = 0; round < 5; round++) {
                last = takeAndRelease(store, key, null);
                lastTurn = takeAndRelease(store, turnKey, new Turn(JpaTestOwners.owner(), 0, 1_000));
            }

            restartSequence(table);

            for (int round = 0; round < 3; round++) {
                long token = takeAndRelease(store, key, null);
                assertThat(token)
                        .as("token of '%s' after the restart, round %d", key, round)
                        .isGreaterThan(last);
                last = token;
                long turnToken = takeAndRelease(store, turnKey, new Turn(JpaTestOwners.owner(), 0, 1_000));
                assertThat(turnToken)
                        .as("token of '%s' (with a turn) after the restart, round %d", turnKey, round)
                        .isGreaterThan(lastTurn);
                lastTurn = turnToken;
            }
        }
    }

    @Test
    void aRestartedSequenceNeverLetsAnAcquisitionTakeALiveKey() {
        Backend backend = backend();
        String table = backend.tableName("floorlive");
        String key = "live:" + UUID.randomUUID();
        EntityManagerFactory otherInstance = backend.newFactory();
        try (JpaLockStore holderStore = backend.store(table);
                JpaLockStore other = backend.store(otherInstance, table)) {
            for (int round = 0; round < 3; round++) {
                takeAndRelease(holderStore, key, null);
            }
            String holder = JpaTestOwners.owner();
            long token = holderStore.acquire(Acquisition.of(key, holder, TTL)).fencingToken();

            restartSequence(table);

            // every attempt draws values again from 1: one of them is the holder's token
            for (int attempt = 0; attempt <= token + 2; attempt++) {
                AcquireResult r = attempt % 2 == 0
                        ? other.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL))
                        : other.acquire(new Acquisition(
                                key, JpaTestOwners.owner(), TTL, 1_000, new Turn(JpaTestOwners.owner(), 0, 1)));
                assertThat(r.isAcquired())
                        .as("attempt %d on '%s', held with token %d: %s", attempt, key, token, r)
                        .isFalse();
            }
            assertThat(holderStore.renew(Renewal.of(key, holder, TTL)))
                    .as("the holder's renewal")
                    .isTrue();
            assertThat(holderStore.release(key, holder)).isTrue();
        } finally {
            otherInstance.close();
        }
    }

    private static long takeAndRelease(JpaLockStore store, String key, Turn turn) {
        String owner = JpaTestOwners.owner();
        AcquireResult r = turn == null
                ? store.acquire(Acquisition.of(key, owner, TTL))
                : store.acquire(new Acquisition(key, owner, TTL, 1_000, turn));
        assertThat(r.isAcquired()).as("'%s' is free: %s", key, r).isTrue();
        assertThat(store.release(key, owner)).isTrue();
        return r.fencingToken();
    }

    private void restartSequence(String table) {
        backend()
                .execute("ALTER SEQUENCE " + table + "_seq RESTART"
                        + (backend().database() == JpaDatabase.H2 ? " WITH 1" : ""));
    }
}
