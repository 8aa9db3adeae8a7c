package dev.baton.jpa;

import static dev.baton.spi.LockArguments.STORE_BOUND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TcpProxy;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.Renewal;
import dev.baton.spi.Turn;
import jakarta.persistence.EntityManagerFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Round trips per store operation. On PostgreSQL counted as pgjdbc sends them: every {@code Sync} (end of an
 * extended-protocol exchange) and every simple {@code Query} is one wait for the server, counted from pgjdbc's
 * own protocol log, only for messages sent by the test's thread. On MariaDB counted on the wire, by a proxy
 * in front of the server: every message of a client that follows an answer of the server.
 */
class RoundTripTest {

    /** pgjdbc logs each protocol message it sends here, at FINEST. */
    private static final Logger PROTOCOL = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");

    @ParameterizedTest
    @EnumSource(Provider.class)
    void everyOperationAndEveryRenewalBatchIsOneRoundTrip(Provider provider) {
        Backend backend = new Backend(JpaDatabase.POSTGRESQL, provider);
        try (JpaLockStore store = backend.store(backend.tableName("trips"))) {
            String owner = JpaTestOwners.owner();
            String key = "trips:" + UUID.randomUUID();
            store.database(); // connected: schema created and checked
            try (RoundTrips trips = RoundTrips.count()) {
                eachPlainOperationIsOneRoundTrip(store, key, owner, trips::take, 1);

                assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                        .isTrue();
                trips.take();
                String waiter = JpaTestOwners.owner();
                assertThat(store.acquire(new Acquisition(key, waiter, 60_000, 1_000, new Turn(waiter, 0, 60_000)))
                                .isNextInTurn())
                        .isTrue();
                assertThat(trips.take()).as("an acquire that claims the turn").isEqualTo(1);
                assertThat(store.leaveTurn(key, waiter)).isTrue();
                assertThat(trips.take()).as("leaving the turn").isEqualTo(1);
            }

            List<Lease> leases = twoBatchesOfLeases(store, owner);
            try (RoundTrips trips = RoundTrips.count()) {
                assertThat(store.renewAll(leases, 60_000, STORE_BOUND)).hasSize(1_500);
                assertThat(trips.take())
                        .as("1,500 leases renewed in two batches")
                        .isEqualTo(2);
            }
        }
    }

    /**
     * MariaDB: every operation is one statement in autocommit on a connection the pool lends in autocommit
     * (EclipseLink's own pool; Hibernate's with {@code hibernate.connection.autocommit=true}): one round trip.
     */
    @ParameterizedTest
    @EnumSource(Provider.class)
    void onMariadbEveryOperationIsOneRoundTripAndEveryRenewalBatchOne(Provider provider) throws Exception {
        Backend backend = new Backend(JpaDatabase.MARIADB, provider);
        String table = backend.tableName("mtrips");
        try (TcpProxy proxy = TcpProxy.forJdbcUrl(backend.url())) {
            proxy.start();
            EntityManagerFactory factory = backend.newFactory(
                    proxy.rewrite(TestDatabases.lockStoreUrl(backend.url())),
                    Map.of("hibernate.connection.autocommit", "true"));
            try (JpaLockStore store = backend.store(factory, table)) {
                String owner = JpaTestOwners.owner();
                String key = "trips:" + UUID.randomUUID();
                store.database(); // connected: schema created and checked
                assertThat(store.inspect(key)).isEmpty(); // the pool has a connection
                proxy.takeRoundTrips();

                // a release that finds no lease of its owner also reads whether shared leases hold the key
                eachPlainOperationIsOneRoundTrip(store, key, owner, proxy::takeRoundTrips, 2);

                assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                        .isTrue();
                proxy.takeRoundTrips();
                String waiter = JpaTestOwners.owner();
                assertThat(store.acquire(new Acquisition(key, waiter, 60_000, 1_000, new Turn(waiter, 0, 60_000)))
                                .isNextInTurn())
                        .isTrue();
                assertThat(proxy.takeRoundTrips())
                        .as("a first ask that claims the turn")
                        .isEqualTo(1);
                Thread.sleep(50); // the next waiter, who has waited 10 ms, began after the one in turn
                String younger = JpaTestOwners.owner();
                assertThat(store.acquire(new Acquisition(key, younger, 60_000, 1_000, new Turn(younger, 10, 1_000)))
                                .isNextInTurn())
                        .isFalse();
                assertThat(proxy.takeRoundTrips())
                        .as("a younger waiter's poll, refused by the read")
                        .isEqualTo(1);
                assertThat(store.acquire(new Acquisition(key, waiter, 60_000, 1_000, new Turn(waiter, 100, 60_000)))
                                .isNextInTurn())
                        .isTrue();
                assertThat(proxy.takeRoundTrips())
                        .as("the poll of the waiter in turn: the read, then the upsert that renews its turn")
                        .isEqualTo(2);
                assertThat(store.leaveTurn(key, waiter)).isTrue();
                assertThat(proxy.takeRoundTrips()).as("leaving the turn").isEqualTo(1);

                List<Lease> leases = twoBatchesOfLeases(store, owner);
                proxy.takeRoundTrips();
                assertThat(store.renewAll(leases, 60_000, STORE_BOUND)).hasSize(1_500);
                assertThat(proxy.takeRoundTrips())
                        .as("1,500 leases renewed in two batches")
                        .isEqualTo(2);
                Lease lost = leases.get(7);
                assertThat(store.release(lost.key(), owner)).isTrue();
                proxy.takeRoundTrips();
                assertThat(store.renewAll(leases, 60_000, STORE_BOUND))
                        .hasSize(1_499)
                        .doesNotContain(lost);
                assertThat(proxy.takeRoundTrips())
                        .as("two batches, and a read of the live leases in the batch that lost one")
                        .isEqualTo(3);
            } finally {
                factory.close();
            }
        }
    }

    /**
     * MariaDB on a pool that lends connections with autocommit off (Hibernate's built-in pool by default): the
     * store does not switch it (a round trip each way) but commits after the statement. That pool itself
     * switches autocommit off when it lends a connection and on when it takes it back: two round trips of its
     * own per operation, which {@code hibernate.connection.autocommit=true} (or another pool) saves.
     */
    @org.junit.jupiter.api.Test
    void onMariadbAPoolWithoutAutocommitCostsACommitMore() throws Exception {
        Backend backend = new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE);
        String table = backend.tableName("mtripsnc");
        try (TcpProxy proxy = TcpProxy.forJdbcUrl(backend.url())) {
            proxy.start();
            EntityManagerFactory factory = backend.newFactory(proxy.rewrite(TestDatabases.lockStoreUrl(backend.url())));
            try (JpaLockStore store = backend.store(factory, table)) {
                String owner = JpaTestOwners.owner();
                String key = "trips:" + UUID.randomUUID();
                store.database();
                assertThat(store.inspect(key)).isEmpty();
                proxy.takeRoundTrips();
                assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                        .isTrue();
                int acquire = proxy.takeRoundTrips();
                assertThat(store.release(key, owner)).isTrue();
                int release = proxy.takeRoundTrips();
                System.out.println("RoundTripTest: MariaDB, Hibernate's pool without autocommit: acquire " + acquire
                        + ", release " + release + " round trips");
                assertThat(acquire)
                        .as("an acquire: the pool's switch, the statement, its COMMIT, the pool's switch back")
                        .isEqualTo(4);
                assertThat(release).as("a release: the same").isEqualTo(4);
            } finally {
                factory.close();
            }
        }
    }

    /** 1,500 held leases: two batches of the renewal. */
    private static List<Lease> twoBatchesOfLeases(JpaLockStore store, String owner) {
        List<Lease> leases = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            String held = "tripsb:" + i + ":" + UUID.randomUUID();
            assertThat(store.acquire(Acquisition.of(held, owner, 60_000)).isAcquired())
                    .isTrue();
            leases.add(new Lease(held, owner));
        }
        return leases;
    }

    /**
     * Acquire, a refused acquire, renew, inspect and release: one round trip each; a release of a lock not held:
     * {@code releaseNotHeld} (PostgreSQL tells in the release's statement whether shared leases hold the key,
     * MariaDB in a read after it).
     */
    private static void eachPlainOperationIsOneRoundTrip(
            JpaLockStore store, String key, String owner, IntSupplier trips, int releaseNotHeld) {
        assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                .isTrue();
        assertThat(trips.getAsInt()).as("an uncontended acquire").isEqualTo(1);
        assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                        .isAcquired())
                .isFalse();
        assertThat(trips.getAsInt()).as("a refused acquire").isEqualTo(1);
        assertThat(store.renew(Renewal.of(key, owner, 60_000))).isTrue();
        assertThat(trips.getAsInt()).as("a renewal").isEqualTo(1);
        assertThat(store.inspect(key)).isPresent();
        assertThat(trips.getAsInt()).as("an inspection").isEqualTo(1);
        assertThat(store.release(key, owner)).isTrue();
        assertThat(trips.getAsInt()).as("a release").isEqualTo(1);
        assertThat(store.release(key, owner)).isFalse();
        assertThat(trips.getAsInt()).as("a release of a lock not held").isEqualTo(releaseNotHeld);
    }

    /** Counts the round trips that pgjdbc starts on the current thread. */
    private static final class RoundTrips extends Handler implements AutoCloseable {

        private final long thread = Thread.currentThread().getId();
        private final AtomicInteger count = new AtomicInteger();
        private final Level previous = PROTOCOL.getLevel();

        static RoundTrips count() {
            RoundTrips trips = new RoundTrips();
            PROTOCOL.setLevel(Level.FINEST);
            PROTOCOL.addHandler(trips);
            return trips;
        }

        /** @return the round trips since the last call, and starts counting anew */
        int take() {
            return count.getAndSet(0);
        }

        @Override
        public void publish(LogRecord record) {
            String message = record.getMessage();
            if (record.getLongThreadID() == thread
                    && message != null
                    && (message.contains("FE=> Sync") || message.contains("FE=> SimpleQuery"))) {
                count.incrementAndGet();
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            PROTOCOL.removeHandler(this);
            PROTOCOL.setLevel(previous);
        }
    }
}
