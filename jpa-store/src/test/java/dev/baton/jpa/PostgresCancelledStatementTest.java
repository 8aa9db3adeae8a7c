package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.RowLocks;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PostgreSQL now and then reports its own lock timeout as a cancelled statement ({@code 57014}, "canceling
 * statement due to user request": the timer fires as one lock wait of the statement ends and the next one
 * begins, which resets its flag). A store call whose statement is cancelled changed nothing, so it runs the
 * statement again within its bound; an acquisition out of time answers "not acquired" rather than failing.
 * The tests force the cancel with {@code pg_cancel_backend} on the session that waits for a key's row while
 * another transaction holds that row.
 */
class PostgresCancelledStatementTest {

    private static final long HUNG_SECONDS = 30;

    @ParameterizedTest
    @EnumSource(Provider.class)
    void anAcquisitionCancelledWhileItWaitsForTheKeysRowWaitsAgainAndTakesTheKey(Provider provider) throws Exception {
        try (LockedRow row = LockedRow.of(provider)) {
            CompletableFuture<AcquireResult> waiting = row.acquire(60_000);
            List<Waiter> cancelled = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Waiter waiter = awaitNewWaiter(row.table, cancelled, waiting);
                assertThat(cancel(waiter))
                        .as("pg_cancel_backend(%s)", waiter.pid())
                        .isTrue();
                cancelled.add(waiter);
            }
            // It waits a fourth time: each cancelled statement was run again, on the call's bound.
            awaitNewWaiter(row.table, cancelled, waiting);
            row.other.release();

            assertThat(waiting.get(HUNG_SECONDS, TimeUnit.SECONDS).isAcquired())
                    .as("acquired once the other transaction let the row go")
                    .isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void anAcquisitionCancelledEachTimeItWaitsAnswersNotAcquiredAtTheEndOfItsBound(Provider provider) throws Exception {
        try (LockedRow row = LockedRow.of(provider)) {
            CompletableFuture<AcquireResult> waiting = row.acquire(3_000);
            List<Waiter> cancelled = new ArrayList<>();
            while (!waiting.isDone()) {
                Waiter waiter = findNewWaiter(row.table, cancelled);
                if (waiter != null && cancel(waiter)) {
                    cancelled.add(waiter);
                }
                Thread.sleep(5);
            }
            assertThat(cancelled).as("statements cancelled while they waited").isNotEmpty();
            assertThat(waiting.get(HUNG_SECONDS, TimeUnit.SECONDS).isAcquired())
                    .as("its row stayed locked by the other transaction: not acquired, and no failure")
                    .isFalse();
        }
    }

    /** A free key (its lease is over) whose row another transaction holds locked. */
    private static final class LockedRow implements AutoCloseable {

        final String table;
        final String key = "cancel:" + UUID.randomUUID();
        final JpaLockStore store;
        final RowLocks.Holder other;

        private LockedRow(Backend backend) {
            this.table = backend.tableName("cancel");
            this.store = backend.store(table);
            this.other = RowLocks.holder(JpaDatabase.POSTGRESQL);
        }

        static LockedRow of(Provider provider) throws InterruptedException {
            LockedRow row = new LockedRow(new Backend(JpaDatabase.POSTGRESQL, provider));
            assertThat(row.store
                            .acquire(Acquisition.of(row.key, JpaTestOwners.owner(), 1))
                            .isAcquired())
                    .isTrue();
            Thread.sleep(5); // over: an acquisition reads no live lease, so it goes for the row
            assertThat(row.other.lock("SELECT lock_key FROM " + row.table + " WHERE lock_key = ? FOR UPDATE", row.key))
                    .isEqualTo(1);
            return row;
        }

        /** Starts an acquisition of the key, bounded by {@code maxWaitMillis}: it waits for the locked row. */
        CompletableFuture<AcquireResult> acquire(long maxWaitMillis) {
            return CompletableFuture.supplyAsync(
                    () -> store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000, maxWaitMillis)));
        }

        @Override
        public void close() {
            other.close();
            store.close();
        }
    }

    /** A waiting statement: its session and when that session began it. */
    private record Waiter(int pid, Timestamp queryStart) {}

    /** Waits until a statement on {@code table} that is not one of {@code seen} waits for a lock. */
    private static Waiter awaitNewWaiter(String table, List<Waiter> seen, Future<?> call) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HUNG_SECONDS);
        while (System.nanoTime() < deadline) {
            Waiter waiter = findNewWaiter(table, seen);
            if (waiter != null) {
                return waiter;
            }
            if (call.isDone()) {
                throw new AssertionError("the acquisition ended instead of waiting again after "
                        + seen.size() + " cancelled statements: "
                        + ((CompletableFuture<?>) call)
                                .handle((r, e) -> e != null ? e.toString() : String.valueOf(r))
                                .join());
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no new statement on " + table + " waited for a lock within " + HUNG_SECONDS + " s");
    }

    private static Waiter findNewWaiter(String table, List<Waiter> seen) throws SQLException {
        try (Connection c = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                PreparedStatement ps = c.prepareStatement("SELECT pid, query_start FROM pg_stat_activity"
                        + " WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND lower(query) LIKE ?")) {
            ps.setString(1, "%" + table.toLowerCase(java.util.Locale.ROOT) + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Waiter waiter = new Waiter(rs.getInt(1), rs.getTimestamp(2));
                    if (!seen.contains(waiter)) {
                        return waiter;
                    }
                }
            }
        }
        return null;
    }

    private static boolean cancel(Waiter waiter) throws SQLException {
        try (Connection c = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                PreparedStatement ps = c.prepareStatement("SELECT pg_cancel_backend(?)")) {
            ps.setInt(1, waiter.pid());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
