package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import dev.baton.tck.Together;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fair turns ({@link StoreCapability#WAITING_TURNS}) on a real database, with the interleavings forced
 * by the test: a live turn keeps a free key for its waiter, an older waiter takes the turn from a
 * younger one, a turn expires, taking the key clears it, {@code leaveTurn} clears only its own, many
 * threads with turns never hold a key together, and a turn claim behind a fenced write returns within
 * its bound.
 */
@Tag("turns")
public abstract class TurnsSuite {

    private static final long LONG_LEASE = 60_000;
    private static final long KEEP = 30_000;
    private static final long PROMPT_MILLIS = 5_000;
    private static final long HUNG_SECONDS = 20;

    /** @return the database and provider to test */
    protected abstract Backend backend();

    private static String key(String purpose) {
        return purpose + ":" + UUID.randomUUID();
    }

    private static String waiter() {
        return "w-" + JpaTestOwners.owner();
    }

    @Test
    void theStoreDeclaresWaitingTurns() {
        try (JpaLockStore store = backend().store(backend().tableName("turns"))) {
            assertThat(store.capabilities()).contains(StoreCapability.WAITING_TURNS);
        }
    }

    // (a) A live turn keeps a free key for its waiter: a plain acquisition and a younger waiter are refused.
    @Test
    void aLiveTurnKeepsAFreeKeyForItsWaiter() {
        try (JpaLockStore store = backend().store(backend().tableName("turns"))) {
            String key = key("keep");
            String holder = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, holder, LONG_LEASE)).isAcquired())
                    .isTrue();

            Turn first = new Turn(waiter(), 1_000, KEEP);
            AcquireResult waiting =
                    store.acquire(new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, first));
            assertThat(waiting.isAcquired()).isFalse();
            assertThat(waiting.isNextInTurn()).as("%s", waiting).isTrue();
            assertThat(waiting.remainingLeaseMillis().orElse(-1)).isBetween(1L, LONG_LEASE);

            assertThat(store.release(key, holder)).isTrue();

            AcquireResult plain = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), LONG_LEASE, 1_000));
            assertThat(plain.isAcquired())
                    .as("a plain acquisition of a free key with a live turn")
                    .isFalse();
            assertThat(plain.isNextInTurn()).isFalse();
            assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), LONG_LEASE))
                            .isAcquired())
                    .isFalse();

            AcquireResult younger = store.acquire(
                    new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, new Turn(waiter(), 10, KEEP)));
            assertThat(younger.isAcquired())
                    .as("a younger waiter of a free key with a live turn")
                    .isFalse();
            assertThat(younger.isNextInTurn()).isFalse();
            assertThat(younger.remainingLeaseMillis())
                    .as("the key is free: no holder's lease")
                    .isEmpty();

            String owner = JpaTestOwners.owner();
            AcquireResult taken = store.acquire(new Acquisition(key, owner, LONG_LEASE, 1_000, first));
            assertThat(taken.isAcquired()).as("the turn's waiter takes the key").isTrue();
            assertThat(store.release(key, owner)).isTrue();
        }
    }

    // (b) Of two waiters, the one that has waited longer gets the turn, also from a younger one that had it.
    @Test
    void anOlderWaiterTakesTheTurnFromAYoungerOne() {
        try (JpaLockStore store = backend().store(backend().tableName("turns"))) {
            String key = key("older");
            String holder = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, holder, LONG_LEASE)).isAcquired())
                    .isTrue();

            Turn young = new Turn(waiter(), 10, KEEP);
            Turn old = new Turn(waiter(), 60_000, KEEP);
            assertThat(store.acquire(new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, young))
                            .isNextInTurn())
                    .isTrue();
            assertThat(store.acquire(new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, young))
                            .isNextInTurn())
                    .as("its own turn, renewed")
                    .isTrue();
            assertThat(store.acquire(new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, old))
                            .isNextInTurn())
                    .as("the older waiter takes the turn")
                    .isTrue();
            AcquireResult youngAgain = store.acquire(
                    new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, new Turn(young.waiter(), 50, KEEP)));
            assertThat(youngAgain.isNextInTurn())
                    .as("the younger one lost it: %s", youngAgain)
                    .isFalse();
            assertThat(youngAgain.remainingLeaseMillis())
                    .as("held: the holder's lease")
                    .isPresent();

            assertThat(store.release(key, holder)).isTrue();
            assertThat(store.acquire(new Acquisition(
                                    key, JpaTestOwners.owner(), LONG_LEASE, 1_000, new Turn(young.waiter(), 60, KEEP)))
                            .isAcquired())
                    .as("the younger one, on the free key")
                    .isFalse();
            String owner = JpaTestOwners.owner();
            assertThat(store.acquire(new Acquisition(
                                    key, owner, LONG_LEASE, 1_000, new Turn(old.waiter(), 60_100, KEEP)))
                            .isAcquired())
                    .isTrue();
            assertThat(store.release(key, owner)).isTrue();
        }
    }

    // (c) A turn nobody renews expires after keepMillis; then anyone takes the free key.
    @Test
    void aTurnExpiresAfterKeepMillis() throws Exception {
        try (JpaLockStore store = backend().store(backend().tableName("turns"))) {
            String key = key("expire");
            String holder = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, holder, LONG_LEASE)).isAcquired())
                    .isTrue();
            long keep = 700;
            long claimed = System.nanoTime();
            assertThat(store.acquire(new Acquisition(
                                    key, JpaTestOwners.owner(), LONG_LEASE, 1_000, new Turn(waiter(), 0, keep)))
                            .isNextInTurn())
                    .isTrue();
            assertThat(store.release(key, holder)).isTrue();
            if (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - claimed) < keep - 200) {
                assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), LONG_LEASE))
                                .isAcquired())
                        .as("the turn is still live")
                        .isFalse();
            }
            Thread.sleep(keep + 300);
            String owner = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, owner, LONG_LEASE)).isAcquired())
                    .as("the turn has expired")
                    .isTrue();
            assertThat(store.release(key, owner)).isTrue();
        }
    }

    // (d) Taking the key clears its turn: after a release, nobody's turn is in the way.
    @Test
    void takingTheKeyClearsItsTurn() throws Exception {
        String table = backend().tableName("turns");
        try (JpaLockStore store = backend().store(table)) {
            String key = key("clear");
            String holder = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, holder, LONG_LEASE)).isAcquired())
                    .isTrue();
            Turn turn = new Turn(waiter(), 100, KEEP);
            assertThat(store.acquire(new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, turn))
                            .isNextInTurn())
                    .isTrue();
            assertThat(turnWaiter(table, key)).isEqualTo(turn.waiter());
            assertThat(store.release(key, holder)).isTrue();

            String owner = JpaTestOwners.owner();
            long token = store.acquire(new Acquisition(key, owner, LONG_LEASE, 1_000, turn))
                    .fencingToken();
            assertThat(turnWaiter(table, key))
                    .as("the turn after its waiter took the key")
                    .isNull();
            assertThat(store.leaveTurn(key, turn.waiter()))
                    .as("no turn left to leave")
                    .isFalse();
            assertThat(store.release(key, owner)).isTrue();

            String next = JpaTestOwners.owner();
            AcquireResult plain = store.acquire(Acquisition.of(key, next, LONG_LEASE));
            assertThat(plain.isAcquired())
                    .as("a plain acquisition right after the release")
                    .isTrue();
            assertThat(plain.fencingToken()).isGreaterThan(token);
            assertThat(store.release(key, next)).isTrue();
        }
    }

    // (e) leaveTurn clears the turn of its own waiter only; release and renew leave the turn alone.
    @Test
    void leaveTurnClearsOnlyItsOwnTurn() {
        try (JpaLockStore store = backend().store(backend().tableName("turns"))) {
            String key = key("leave");
            String holder = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, holder, LONG_LEASE)).isAcquired())
                    .isTrue();
            Turn turn = new Turn(waiter(), 100, KEEP);
            assertThat(store.acquire(new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 1_000, turn))
                            .isNextInTurn())
                    .isTrue();

            assertThat(store.leaveTurn(key, waiter()))
                    .as("another waiter's turn")
                    .isFalse();
            assertThat(store.leaveTurn(key("other"), turn.waiter()))
                    .as("a key without row")
                    .isFalse();
            assertThat(store.renew(Renewal.of(key, holder, LONG_LEASE))).isTrue();
            assertThat(store.release(key, holder)).isTrue();
            assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), LONG_LEASE))
                            .isAcquired())
                    .as("the turn outlived release and renew")
                    .isFalse();

            assertThat(store.leaveTurn(key, turn.waiter())).isTrue();
            assertThat(store.leaveTurn(key, turn.waiter())).as("left already").isFalse();
            String owner = JpaTestOwners.owner();
            assertThat(store.acquire(Acquisition.of(key, owner, LONG_LEASE)).isAcquired())
                    .as("the turn was left")
                    .isTrue();
            assertThat(store.release(key, owner)).isTrue();
        }
    }

    // (f) Real threads with turns on one key: never two holders, tokens strictly increasing.
    @Test
    void manyWaitersWithTurnsNeverHoldTheKeyTogether() throws Exception {
        int threads = 8;
        int rounds = 200;
        try (JpaLockStore store = backend().store(backend().tableName("turns"))) {
            String key = key("race");
            AtomicInteger holders = new AtomicInteger();
            AtomicLong lastToken = new AtomicLong();
            AtomicInteger nextInTurn = new AtomicInteger();
            List<String> violations = Collections.synchronizedList(new ArrayList<>());
            Together.run(threads, thread -> {
                for (int round = 0; round < rounds && violations.isEmpty(); round++) {
                    String waiter = "w" + thread + "-" + round + "-" + UUID.randomUUID();
                    String owner = JpaTestOwners.owner();
                    long since = System.nanoTime();
                    AcquireResult result;
                    while (true) {
                        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
                        result = store.acquire(
                                new Acquisition(key, owner, 10_000, 2_000, new Turn(waiter, waited, 5_000)));
                        if (result.isAcquired()) {
                            break;
                        }
                        if (result.isNextInTurn()) {
                            nextInTurn.incrementAndGet();
                        }
                        Thread.sleep(1);
                    }
                    int now = holders.incrementAndGet();
                    if (now != 1) {
                        violations.add(now + " holders at once, token " + result.fencingToken());
                    }
                    long previous = lastToken.getAndSet(result.fencingToken());
                    if (previous >= result.fencingToken()) {
                        violations.add("token " + result.fencingToken() + " after " + previous);
                    }
                    holders.decrementAndGet();
                    if (!store.release(key, owner)) {
                        violations.add("release of token " + result.fencingToken() + " failed");
                    }
                }
            });
            assertThat(violations).isEmpty();
            assertThat(nextInTurn.get()).as("waiters that held the turn").isPositive();
        }
    }

    // (h) A turn claim while the holder's fenced transaction is open returns within its bound; PostgreSQL
    // claims without waiting for the fence. A takeover of the expired key still waits for the fence.
    @Test
    void aTurnClaimBehindAFencedWriteReturnsWithinItsBound() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("turns");
        String data = table + "_data";
        backend.execute("CREATE TABLE IF NOT EXISTS " + data + " (id INT PRIMARY KEY, n INT NOT NULL)");
        int id = Math.abs(UUID.randomUUID().hashCode() % 1_000_000);
        backend.execute("INSERT INTO " + data + " (id, n) VALUES (" + id + ", 0)");
        try (JpaLockStore store = backend.store(table)) {
            FencedWrites fenced = store.fencedWrites();
            String key = key("fence");
            String holder = JpaTestOwners.owner();
            long ttl = 1_500;
            long acquiredAt = System.nanoTime();
            long token = store.acquire(Acquisition.of(key, holder, ttl)).fencingToken();
            Turn turn = new Turn(waiter(), 100, KEEP);
            EntityManager em = backend.sharedFactory().createEntityManager();
            try {
                em.getTransaction().begin();
                assertThat(fenced.executeUpdate(
                                em, key, token, "UPDATE " + data + " SET n = n + 1 WHERE id = ?1 AND {fence}", id))
                        .isEqualTo(1);

                long t0 = System.nanoTime();
                AcquireResult claim =
                        timed(() -> store.acquire(new Acquisition(key, JpaTestOwners.owner(), ttl, 300, turn)));
                assertThat(millisSince(t0)).as("ms the 300 ms turn claim took").isLessThan(PROMPT_MILLIS);
                assertThat(claim.isAcquired()).isFalse();
                if (backend.database() == JpaDatabase.POSTGRESQL) {
                    assertThat(claim.isNextInTurn())
                            .as("PostgreSQL claims the turn beside the fence: %s", claim)
                            .isTrue();
                }
                t0 = System.nanoTime();
                assertThat(timed(() -> store.acquire(new Acquisition(key, JpaTestOwners.owner(), ttl, 0, turn)))
                                .isAcquired())
                        .isFalse();
                assertThat(millisSince(t0))
                        .as("ms the turn claim that must not wait took")
                        .isLessThan(PROMPT_MILLIS / 2);

                // The lease runs out while the fenced transaction is open: the waiter must not take over.
                Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(acquiredAt - System.nanoTime()) + ttl + 300));
                t0 = System.nanoTime();
                AcquireResult takeover =
                        timed(() -> store.acquire(new Acquisition(key, JpaTestOwners.owner(), LONG_LEASE, 300, turn)));
                assertThat(takeover.isAcquired())
                        .as("taken over while the fenced transaction is open")
                        .isFalse();
                assertThat(millisSince(t0))
                        .as("ms the 300 ms takeover attempt took")
                        .isLessThan(PROMPT_MILLIS);

                em.getTransaction().commit();
            } finally {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
                em.close();
            }
            String owner = JpaTestOwners.owner();
            assertThat(store.acquire(new Acquisition(key, owner, LONG_LEASE, 1_000, turn))
                            .isAcquired())
                    .as("taken once the fenced transaction committed")
                    .isTrue();
            assertThat(store.release(key, owner)).isTrue();
        }
    }

    private static <T> T timed(Supplier<T> call) throws InterruptedException, TimeoutException {
        CompletableFuture<T> future = CompletableFuture.supplyAsync(call);
        try {
            return future.get(HUNG_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException("the store call did not return within " + HUNG_SECONDS + " s");
        }
    }

    private static long millisSince(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    private String turnWaiter(String table, String key) throws SQLException {
        try (Connection c = TestDatabases.connect(backend().database());
                PreparedStatement ps = c.prepareStatement("SELECT turn_waiter FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }
}
