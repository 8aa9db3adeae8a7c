package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.JtaDataSource;
import dev.baton.jpa.testing.RowLocks;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code purge-after} on the real databases: expiries are set in the database directly (no sleeps), the
 * interleavings are forced (a hook between the read of candidates and the delete; a row lock of another
 * transaction that the delete waits for).
 */
class PurgeTest {

    private static final Map<JpaDatabase, JtaDataSource> POOLS = new ConcurrentHashMap<>();
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final Duration AFTER = Duration.ofSeconds(70); // the minimum for the default 5 s timeout

    private static JpaLockStore.Builder builder(JpaDatabase database, String table) {
        return JpaLockStore.builder(POOLS.computeIfAbsent(database, d -> new JtaDataSource(TestDatabases.url(d), null)))
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(SchemaAction.CREATE)
                .purgeAfter(AFTER)
                .purgeInterval(Duration.ofHours(1)); // the tests purge by hand
    }

    private static String newTable(JpaDatabase database) {
        String table = "bt_purge" + TABLES.incrementAndGet() + "_" + TestDatabases.runSuffix();
        TestDatabases.created(database, table);
        return table;
    }

    /** Moves a row's expiry {@code seconds} from now (negative: the past) by the database clock. */
    private static void expire(JpaDatabase database, String table, String key, long seconds) {
        String at = switch (database) {
            case POSTGRESQL -> "clock_timestamp() + CAST(? AS BIGINT) * INTERVAL '1 second'";
            case MARIADB -> "UTC_TIMESTAMP(6) + INTERVAL ? SECOND";
            case H2 -> "DATEADD(SECOND, CAST(? AS BIGINT), CURRENT_TIMESTAMP)";
        };
        sql(database, "UPDATE " + table + " SET expires_at = " + at + " WHERE lock_key = ?", seconds, key);
    }

    private static int sql(JpaDatabase database, String sql, Object... parameters) {
        try (Connection c = TestDatabases.connect(database);
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean exists(JpaDatabase database, String table, String key) {
        try (Connection c = TestDatabases.connect(database);
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 1;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void rowsOlderThanTheMarginGoRecentAndHeldOnesStay(JpaDatabase database) {
        String table = newTable(database);
        try (JpaLockStore store = builder(database, table).purgeBatch(2).build()) {
            for (String key : List.of("old1", "old2", "old3", "recent", "held", "turn")) {
                assertThat(store.acquire(Acquisition.of(key, "o-" + key, 60_000))
                                .isAcquired())
                        .isTrue();
            }
            expire(database, table, "old1", -3_600);
            expire(database, table, "old2", -3_600);
            expire(database, table, "old3", -71);
            expire(database, table, "recent", -60); // expired, but within the margin
            expire(database, table, "turn", -3_600);
            sql(
                    database,
                    "UPDATE " + table + " SET turn_waiter = 'w', turn_since = expires_at, turn_until = "
                            + "(SELECT MAX(expires_at) FROM " + table
                            + " WHERE lock_key = 'held') WHERE lock_key = 'turn'");

            assertThat(store.purgeExpired()).hasValue(3); // in batches of 2
            assertThat(exists(database, table, "old1")).isFalse();
            assertThat(exists(database, table, "old2")).isFalse();
            assertThat(exists(database, table, "old3")).isFalse();
            assertThat(exists(database, table, "recent")).isTrue();
            assertThat(exists(database, table, "held")).isTrue();
            assertThat(exists(database, table, "turn"))
                    .as("a live turn keeps its row")
                    .isTrue();
            assertThat(store.renew(Renewal.of("held", "o-held", 60_000))).isTrue();
            assertThat(exists(database, table, JpaLockStore.PURGE_KEY))
                    .as("the purge lock is released, its row stays")
                    .isTrue();
            assertThat(store.purgeExpired()).hasValue(0);
        }
    }

    /**
     * A key whose shared leases all ended long ago goes with its leases; a key with a live shared lease stays with
     * it, and a purged key's next shared lease still gets a greater token.
     */
    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void theSharedLeasesOfAPurgedKeyGoWithIt(JpaDatabase database) {
        String table = newTable(database);
        String shared = table + "_shared";
        try (JpaLockStore store = builder(database, table).build()) {
            long last = 0;
            for (String owner : List.of("crashed1", "crashed2")) {
                last = store.acquire(new Acquisition("gone", owner, 60_000, 0, null, 2))
                        .fencingToken();
            }
            assertThat(store.acquire(new Acquisition("live", "reader", 60_000, 0, null, 2))
                            .isAcquired())
                    .isTrue();
            expire(database, table, "gone", -3_600);
            expire(database, shared, "gone", -3_600);

            assertThat(store.purgeExpired()).hasValue(1);
            assertThat(exists(database, table, "gone")).isFalse();
            assertThat(sql(database, "DELETE FROM " + shared + " WHERE lock_key = ?", "gone"))
                    .as("shared leases left of the purged key")
                    .isZero();
            assertThat(exists(database, table, "live")).isTrue();
            assertThat(exists(database, shared, "live")).isTrue();
            assertThat(store.renew(Renewal.of("live", "reader", 60_000))).isTrue();
            assertThat(store.acquire(new Acquisition("gone", "again", 60_000, 0, null, 2))
                            .fencingToken())
                    .isGreaterThan(last);
        }
    }

    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void tokensStillGrowAcrossAPurgeOfTheKey(JpaDatabase database) {
        String table = newTable(database);
        try (JpaLockStore store = builder(database, table).build()) {
            long first = store.acquire(Acquisition.of("k", "a", 60_000)).fencingToken();
            assertThat(store.release("k", "a")).isTrue();
            expire(database, table, "k", -3_600);
            assertThat(store.purgeExpired()).hasValue(1);
            assertThat(exists(database, table, "k")).isFalse();
            long second = store.acquire(Acquisition.of("k", "b", 60_000)).fencingToken();
            assertThat(second).isGreaterThan(first);
            assertThat(store.acquire(Acquisition.of("k", "c", 60_000)).isAcquired())
                    .isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void aKeyReacquiredBetweenTheReadAndTheDeleteStays(JpaDatabase database) {
        String table = newTable(database);
        try (JpaLockStore store = builder(database, table).build();
                JpaLockStore other = builder(database, table).build()) {
            long old = store.acquire(Acquisition.of("k", "a", 60_000)).fencingToken();
            expire(database, table, "k", -3_600);
            long[] token = new long[1];
            store.beforePurgeDelete(keys -> {
                assertThat(keys).containsExactly("k");
                token[0] = other.acquire(Acquisition.of("k", "b", 60_000)).fencingToken(); // takes the expired row
            });
            assertThat(store.purgeExpired()).hasValue(0);
            assertThat(token[0]).isGreaterThan(old);
            assertThat(other.inspect("k"))
                    .hasValueSatisfying(h -> assertThat(h.fencingToken()).isEqualTo(token[0]));
            assertThat(other.renew(Renewal.of("k", "b", 60_000))).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void aRowLockedByAnotherTransactionIsJudgedAgainAfterTheWait(JpaDatabase database) throws Exception {
        String table = newTable(database);
        try (JpaLockStore store = builder(database, table).build();
                RowLocks.Holder tx = RowLocks.holder(database)) {
            store.acquire(Acquisition.of("k", "a", 60_000));
            expire(database, table, "k", -3_600);
            String future = switch (database) {
                case POSTGRESQL -> "clock_timestamp() + INTERVAL '1 minute'";
                case MARIADB -> "UTC_TIMESTAMP(6) + INTERVAL 1 MINUTE";
                case H2 -> "DATEADD(MINUTE, 1, CURRENT_TIMESTAMP)";
            };
            // another transaction renews the row (as a re-take would) and keeps it locked
            tx.lock("SELECT lock_key FROM " + table + " WHERE lock_key = ? FOR UPDATE", "k");
            tx.update("UPDATE " + table + " SET expires_at = " + future + ", owner = 'b' WHERE lock_key = ?", "k");
            CompletableFuture<OptionalLong> purge = CompletableFuture.supplyAsync(store::purgeExpired);
            // H2: the purge's SELECT ... FOR UPDATE in front of its DELETE is what waits
            RowLocks.awaitWaiting(
                    database, database == JpaDatabase.H2 ? table : "DELETE FROM " + table, Duration.ofSeconds(4));
            tx.release(); // commits the renewal while the DELETE waits for the row
            assertThat(purge.get(10, TimeUnit.SECONDS)).hasValue(0);
            assertThat(exists(database, table, "k")).isTrue();
            assertThat(store.renew(Renewal.of("k", "b", 60_000))).isTrue();
        }
    }

    /**
     * The fencing argument of the purge needs every acquisition's statement to end well within {@code
     * purge-after}: with a purge, a caller's long wait is cut to the statement timeout even while another
     * transaction keeps the key's row locked. The control, the same store without a purge, is still waiting
     * when the purging store has long answered.
     */
    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void withAPurgeAnAcquisitionWaitsForARowLockNoLongerThanTheStatementTimeout(JpaDatabase database) throws Exception {
        String table = newTable(database);
        try (JpaLockStore purging = builder(database, table)
                        .statementTimeout(Duration.ofSeconds(1))
                        .build();
                JpaLockStore plain = JpaLockStore.builder(POOLS.get(database))
                        .table(table)
                        .sequence(table + "_seq")
                        .schemaAction(SchemaAction.CREATE)
                        .statementTimeout(Duration.ofSeconds(1))
                        .build();
                RowLocks.Holder tx = RowLocks.holder(database)) {
            purging.acquire(Acquisition.of("k", "a", 60_000));
            expire(database, table, "k", -3_600); // free to take, for whoever gets the row
            tx.lock("SELECT lock_key FROM " + table + " WHERE lock_key = ? FOR UPDATE", "k");

            CompletableFuture<AcquireResult> waitsLong =
                    CompletableFuture.supplyAsync(() -> plain.acquire(Acquisition.of("k", "c", 60_000, 30_000)));
            long start = System.nanoTime();
            AcquireResult cut = purging.acquire(Acquisition.of("k", "b", 60_000, 30_000));
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(cut.isAcquired())
                    .as("not acquired while the row is locked")
                    .isFalse();
            assertThat(tookMillis)
                    .as("the wait was cut to the statement timeout (1 s) plus the round trip's allowance")
                    .isLessThan(8_000);
            assertThat(waitsLong)
                    .as("without a purge the same call still waits for the row")
                    .isNotDone();

            tx.release();
            assertThat(waitsLong.get(30, TimeUnit.SECONDS).isAcquired())
                    .as("and takes the key once the row is free")
                    .isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void oneInstanceAtATimePurges(JpaDatabase database) {
        String table = newTable(database);
        try (JpaLockStore first = builder(database, table).build();
                JpaLockStore second = builder(database, table).build()) {
            first.acquire(Acquisition.of("k", "a", 60_000));
            expire(database, table, "k", -3_600);
            OptionalLong[] meanwhile = new OptionalLong[1];
            first.beforePurgeDelete(keys -> meanwhile[0] = second.purgeExpired());
            assertThat(first.purgeExpired()).hasValue(1);
            assertThat(meanwhile[0])
                    .as("the second instance found the purge lock held")
                    .isEmpty();
            assertThat(second.purgeExpired()).as("free again").hasValue(0);
        }
    }

    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void theStorePurgesByItselfEveryInterval(JpaDatabase database) {
        String table = newTable(database);
        try (JpaLockStore store =
                builder(database, table).purgeInterval(Duration.ofSeconds(1)).build()) {
            store.acquire(Acquisition.of("k", "a", 60_000));
            store.acquire(Acquisition.of("live", "a", 60_000));
            expire(database, table, "k", -3_600);
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !exists(database, table, "k"));
            assertThat(exists(database, table, "live")).isTrue();
        }
    }
}
