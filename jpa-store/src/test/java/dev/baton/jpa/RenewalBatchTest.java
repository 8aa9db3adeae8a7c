package dev.baton.jpa;

import static dev.baton.spi.LockArguments.STORE_BOUND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.RowLocks;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.Renewal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link JpaLockStore#renewAll}: many held locks renewed well within one renewal interval, with a result
 * per lease (renewed, or lost to a release, a takeover or a missing row).
 */
class RenewalBatchTest {

    /** The leases' ttl; a holder renews every third of it. */
    private static final long TTL_MILLIS = 30_000;

    static Stream<Arguments> backends() {
        return Stream.of(
                Arguments.of(new Backend(JpaDatabase.POSTGRESQL, Provider.HIBERNATE), 10_000),
                Arguments.of(new Backend(JpaDatabase.POSTGRESQL, Provider.ECLIPSELINK), 10_000),
                // MariaDB: 2,000 (two batches of 1,000): 10,000 took 4.3 s on a loaded machine, close to the
                // 5 s bound of one renewAll call (the bound is per call, not per batch)
                Arguments.of(new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE), 2_000),
                Arguments.of(new Backend(JpaDatabase.MARIADB, Provider.ECLIPSELINK), 1_000),
                Arguments.of(new Backend(JpaDatabase.H2, Provider.HIBERNATE), 1_000));
    }

    @ParameterizedTest(name = "{0}, {1} locks")
    @MethodSource("backends")
    void manyHeldLocksAreRenewedWithinOneIntervalAndLostOnesAreReported(Backend backend, int count) throws Exception {
        String table = backend.tableName("batch");
        try (JpaLockStore store = backend.store(table);
                JpaLockStore other = backend.store(table)) {
            String owner = JpaTestOwners.owner();
            String prefix = "batch:" + UUID.randomUUID() + ":";
            List<Lease> held = acquireAll(store, prefix, owner, count);

            // Three of them lost: released; expired and taken over by another owner; its row gone.
            Lease released = held.get(1);
            Lease takenOver = held.get(count / 2);
            Lease deleted = held.get(count - 2);
            assertThat(store.release(released.key(), owner)).isTrue();
            assertThat(store.release(takenOver.key(), owner)).isTrue();
            String newOwner = JpaTestOwners.owner();
            assertThat(other.acquire(Acquisition.of(takenOver.key(), newOwner, TTL_MILLIS))
                            .isAcquired())
                    .isTrue();
            backend.execute("DELETE FROM " + table + " WHERE lock_key = '" + deleted.key() + "'");
            long takenOverExpiry = expiryMillis(backend, table, takenOver.key());

            long t0 = System.nanoTime();
            Set<Lease> renewed = store.renewAll(held, 3 * TTL_MILLIS, STORE_BOUND);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            System.out.println(
                    "RenewalBatchTest: " + backend + " renewed " + count + " locks in " + tookMillis + " ms");

            List<Lease> expected = new ArrayList<>(held);
            expected.removeAll(List.of(released, takenOver, deleted));
            assertThat(renewed).as("the leases renewed").hasSize(count - 3).containsAll(expected);
            assertThat(tookMillis)
                    .as("ms to renew %d locks, within one renewal interval (a third of the ttl)", count)
                    .isLessThan(TTL_MILLIS / 3);
            assertThat(countExpiringAfter(backend, table, prefix, 2 * TTL_MILLIS))
                    .as("rows whose lease was extended to the new ttl")
                    .isEqualTo(count - 3);
            assertThat(expiryMillis(backend, table, takenOver.key()))
                    .as("the new owner's lease, which the renewal of the old one leaves alone")
                    .isEqualTo(takenOverExpiry);
            assertThat(store.acquire(Acquisition.of(takenOver.key(), JpaTestOwners.owner(), TTL_MILLIS))
                            .isAcquired())
                    .isFalse();
            assertThat(other.release(takenOver.key(), newOwner)).isTrue();
            assertThat(store.renewAll(List.of(released, takenOver, deleted), TTL_MILLIS, STORE_BOUND))
                    .as("lost leases stay lost")
                    .isEmpty();
        }
    }

    static Stream<Backend> takeoverBackends() {
        return Stream.of(
                new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE),
                new Backend(JpaDatabase.MARIADB, Provider.ECLIPSELINK),
                new Backend(JpaDatabase.POSTGRESQL, Provider.HIBERNATE),
                new Backend(JpaDatabase.H2, Provider.HIBERNATE));
    }

    /**
     * The dangerous interleaving, forced: a renewal waits for the row of one of its leases while another
     * transaction takes that key over (a new owner, a new token, a live lease) and then commits. The renewal
     * must leave the new owner's lease alone and report the lease lost, and still renew the others of its batch.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("takeoverBackends")
    void aLeaseTakenOverWhileTheRenewalWaitsForItsRowIsReportedLost(Backend backend) throws Exception {
        String table = backend.tableName("btake");
        try (JpaLockStore store = backend.store(table)) {
            String owner = JpaTestOwners.owner();
            String prefix = "btake:" + UUID.randomUUID() + ":";
            List<Lease> held = acquireAll(store, prefix, owner, 3);
            Lease stolen = held.get(1);
            String thief = JpaTestOwners.owner();
            String later = switch (backend.database()) {
                case POSTGRESQL -> "clock_timestamp() + INTERVAL '60 seconds'";
                case MARIADB -> "UTC_TIMESTAMP(6) + INTERVAL 60 SECOND";
                case H2 -> "DATEADD(SECOND, 60, CURRENT_TIMESTAMP)";
            };
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try (Connection takeover = TestDatabases.connect(backend.database())) {
                takeover.setAutoCommit(false);
                try (PreparedStatement ps =
                        takeover.prepareStatement("UPDATE " + table + " SET owner = ?, token = token + 1000000,"
                                + " expires_at = " + later + " WHERE lock_key = ?")) {
                    ps.setString(1, thief);
                    ps.setString(2, stolen.key());
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
                Future<Set<Lease>> renewal = pool.submit(() -> store.renewAll(held, 3 * TTL_MILLIS, 30_000));
                if (!RowLocks.awaitWaiting(
                        backend.database(), table, java.time.Duration.ofSeconds(30), () -> !renewal.isDone())) {
                    throw new AssertionError("the renewal did not wait for the row taken over: " + renewal.get());
                }
                takeover.commit();
                long thiefExpiry = expiryMillis(backend, table, stolen.key());
                Set<Lease> renewed = renewal.get(30, TimeUnit.SECONDS);
                assertThat(renewed).as("the leases renewed").containsExactlyInAnyOrder(held.get(0), held.get(2));
                assertThat(expiryMillis(backend, table, stolen.key()))
                        .as("the new owner's lease, left alone")
                        .isEqualTo(thiefExpiry);
                assertThat(store.renew(Renewal.of(stolen.key(), owner, TTL_MILLIS)))
                        .isFalse();
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static List<Lease> acquireAll(JpaLockStore store, String prefix, String owner, int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Lease>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String key = prefix + i;
                futures.add(pool.submit(() -> {
                    assertThat(store.acquire(Acquisition.of(key, owner, TTL_MILLIS))
                                    .isAcquired())
                            .as(key)
                            .isTrue();
                    return new Lease(key, owner);
                }));
            }
            List<Lease> held = new ArrayList<>();
            for (Future<Lease> f : futures) {
                held.add(f.get(5, TimeUnit.MINUTES));
            }
            return held;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Rows of the prefix whose lease ends more than {@code millis} from now, by the database clock. */
    private static int countExpiringAfter(Backend backend, String table, String prefix, long millis)
            throws SQLException {
        String later = switch (backend.database()) {
            case POSTGRESQL -> "clock_timestamp() + INTERVAL '" + millis + " milliseconds'";
            case MARIADB -> "UTC_TIMESTAMP(6) + INTERVAL " + millis * 1000 + " MICROSECOND";
            case H2 -> "DATEADD(MILLISECOND, " + millis + ", CURRENT_TIMESTAMP)";
        };
        try (Connection c = TestDatabases.connect(backend.database());
                PreparedStatement ps = c.prepareStatement(
                        "SELECT COUNT(*) FROM " + table + " WHERE lock_key LIKE ? AND expires_at > " + later)) {
            ps.setString(1, prefix + "%");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static long expiryMillis(Backend backend, String table, String key) throws SQLException {
        try (Connection c = TestDatabases.connect(backend.database());
                PreparedStatement ps = c.prepareStatement("SELECT expires_at FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("the row of " + key).isTrue();
                return rs.getTimestamp(1).getTime();
            }
        }
    }
}
