package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.ServerPoolNotificationTest.ServerPool;
import dev.baton.jpa.internal.advisory.AdvisoryLocks;
import dev.baton.jpa.internal.advisory.LockName;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.Acquisition;
import dev.baton.spi.KeyFormat;
import dev.baton.spi.Renewal;
import dev.baton.tck.LogCapture;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * The advisory mode on an application server's data source, on PostgreSQL: a pool that lends its own wrappers
 * of a few physical sessions and lends a session again whatever state it comes back in. A lane whose session
 * lost a lock while the session itself still answers gives the session back to the pool free of every advisory
 * lock, rather than ending the pool's session underneath it.
 */
class ServerPoolAdvisoryTest {

    /** {@code AdvisoryLocks.LANES}: keys that hash alike share a lane, and so a session. */
    private static final int LANES = 4;

    @Test
    void aLaneWhoseLiveSessionLostALockUnlocksItAndGivesItBack() throws Exception {
        String table = "bt_advpool_" + TestDatabases.runSuffix();
        TestDatabases.created(JpaDatabase.POSTGRESQL, table);
        try (LogCapture log = LogCapture.start(AdvisoryLocks.class.getName());
                ServerPool pool = new ServerPool(2, false, 0);
                JpaLockStore store = JpaLockStore.builder(pool)
                        .table(table)
                        .sequence(table + "_seq")
                        .schemaAction(SchemaAction.CREATE)
                        .mode(LockMode.ADVISORY)
                        .logKeys(KeyFormat.MASKED)
                        .build()) {
            String namespace;
            try (PreparedStatement ps = pool.physical().get(0).prepareStatement("SELECT current_schema()");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                namespace = rs.getString(1) + "." + table;
            }
            String lost = "lost:" + UUID.randomUUID();
            String sameLane = sameLaneAs(lost);
            assertThat(store.acquire(Acquisition.of(lost, "o1", 30_000, 2_000)).isAcquired())
                    .isTrue();
            assertThat(store.acquire(Acquisition.of(sameLane, "o2", 30_000, 2_000))
                            .isAcquired())
                    .isTrue();

            // the database ends one lock of the lane's session some other way; the session itself is fine
            int unlocked = 0;
            for (Connection c : pool.physical()) {
                if (bool(
                        c,
                        "SELECT pg_advisory_unlock(?)",
                        LockName.of(namespace, lost).id())) {
                    unlocked++;
                }
            }
            assertThat(unlocked).as("sessions that held the lock").isOne();

            assertThat(store.renew(new Renewal(lost, "o1", 30_000, 2_000))).isFalse();
            assertThat(store.renew(new Renewal(sameLane, "o2", 30_000, 2_000)))
                    .as("the lane's other lock is doubtful too: lost")
                    .isFalse();
            assertThat(pool.physicalClosed())
                    .as("pooled sessions ended underneath the pool")
                    .isZero();
            assertThat(log.messages(Level.WARNING, "BATON-JPA-005"))
                    .as("the loss is logged with the key as baton.log.keys says (masked here)")
                    .anySatisfy(line -> assertThat(line).contains("'lost:***'"))
                    .noneSatisfy(line -> assertThat(line).contains(lost.substring("lost:".length())));
            try (Connection other = TestDatabases.connect(JpaDatabase.POSTGRESQL)) {
                assertThat(bool(
                                other,
                                "SELECT pg_try_advisory_lock(?)",
                                LockName.of(namespace, sameLane).id()))
                        .as("the lane's other lock was freed before its session went back to the pool")
                        .isTrue();
                bool(
                        other,
                        "SELECT pg_advisory_unlock(?)",
                        LockName.of(namespace, sameLane).id());
            }
            for (Connection c : pool.physical()) {
                try (PreparedStatement ps = c.prepareStatement(
                                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()");
                        ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(1))
                            .as("advisory locks a pooled session keeps")
                            .isZero();
                }
            }
            assertThat(store.acquire(Acquisition.of(lost, "o3", 30_000, 2_000)).isAcquired())
                    .as("the key can be taken again")
                    .isTrue();
            assertThat(store.release(lost, "o3")).isTrue();
        }
    }

    private static String sameLaneAs(String key) {
        for (int i = 0; ; i++) {
            String candidate = "same:" + i;
            if (lane(candidate) == lane(key)) {
                return candidate;
            }
        }
    }

    private static int lane(String key) {
        int h = key.hashCode();
        return (h ^ h >>> 16) & (LANES - 1);
    }

    private static boolean bool(Connection c, String sql, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
