package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.spi.Lease;
import dev.baton.spi.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Round trips per store operation on PostgreSQL, counted on the wire as pgjdbc sends them: every
 * {@code Sync} (end of an extended-protocol exchange) and every simple {@code Query} is one wait for
 * the server. Counted from pgjdbc's own protocol log, only for messages sent by the test's thread.
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
                assertThat(store.acquire(key, owner, 60_000).isAcquired()).isTrue();
                assertThat(trips.take()).as("an uncontended acquire").isEqualTo(1);
                assertThat(store.acquire(key, JpaTestOwners.owner(), 60_000).isAcquired())
                        .isFalse();
                assertThat(trips.take()).as("a refused acquire").isEqualTo(1);
                assertThat(store.renew(key, owner, 60_000)).isTrue();
                assertThat(trips.take()).as("a renewal").isEqualTo(1);
                assertThat(store.inspect(key)).isPresent();
                assertThat(trips.take()).as("an inspection").isEqualTo(1);
                assertThat(store.release(key, owner)).isTrue();
                assertThat(trips.take()).as("a release").isEqualTo(1);
                assertThat(store.release(key, owner)).isFalse();
                assertThat(trips.take()).as("a release of a lock not held").isEqualTo(1);

                assertThat(store.acquire(key, owner, 60_000).isAcquired()).isTrue();
                trips.take();
                String waiter = JpaTestOwners.owner();
                assertThat(store.acquire(key, waiter, 60_000, 1_000, new Turn(waiter, 0, 60_000))
                                .isNextInTurn())
                        .isTrue();
                assertThat(trips.take()).as("an acquire that claims the turn").isEqualTo(1);
                assertThat(store.leaveTurn(key, waiter)).isTrue();
                assertThat(trips.take()).as("leaving the turn").isEqualTo(1);
            }

            // 1,500 leases: two batches of the renewal
            List<Lease> leases = new ArrayList<>();
            for (int i = 0; i < 1_500; i++) {
                String held = "tripsb:" + i + ":" + UUID.randomUUID();
                assertThat(store.acquire(held, owner, 60_000).isAcquired()).isTrue();
                leases.add(new Lease(held, owner));
            }
            try (RoundTrips trips = RoundTrips.count()) {
                assertThat(store.renewAll(leases, 60_000)).hasSize(1_500);
                assertThat(trips.take())
                        .as("1,500 leases renewed in two batches")
                        .isEqualTo(2);
            }
        }
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
