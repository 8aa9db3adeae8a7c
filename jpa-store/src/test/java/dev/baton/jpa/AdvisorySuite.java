package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.jpa.internal.advisory.LockName;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.text.Normalizer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The advisory mode against a real database: a killed backend session loses its locks (the holder learns at
 * its next renewal, another instance takes the key at once), keys that differ only in case, trailing space or
 * normal form are distinct locks also where the database compares lock names loosely, and tokens keep
 * growing across table and advisory mode on one sequence. Two entity manager factories are two instances.
 */
public abstract class AdvisorySuite {

    private static final long TTL = 60_000;

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Test
    void aKilledConnectionLosesTheLockAtTheNextRenewalAndAnotherInstanceTakesItAtOnce() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("advkill");
        EntityManagerFactory f1 = backend.newFactory();
        EntityManagerFactory f2 = backend.newFactory();
        try (JpaLockStore holder = backend.store(f1, table, LockMode.ADVISORY);
                JpaLockStore other = backend.store(f2, table, LockMode.ADVISORY)) {
            for (int round = 0; round < 5; round++) {
                String key = "kill:" + round + ":" + UUID.randomUUID();
                String owner = JpaTestOwners.owner();
                long token = holder.acquire(Acquisition.of(key, owner, TTL)).fencingToken();
                assertThat(other.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL))
                                .isAcquired())
                        .as("held by the holder")
                        .isFalse();
                assertThat(holder.renew(Renewal.of(key, owner, TTL)))
                        .as("the holder's renewal before the kill")
                        .isTrue();

                killSessionHolding(table, key);

                assertThat(holder.renew(Renewal.of(key, owner, TTL)))
                        .as("the holder's first renewal after its session was killed")
                        .isFalse();
                AcquireResult taken = other.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL));
                assertThat(taken.isAcquired())
                        .as("another instance takes the key at once, round %d", round)
                        .isTrue();
                assertThat(taken.fencingToken()).as("the new holder's token").isGreaterThan(token);
                assertThat(holder.release(key, owner))
                        .as("the former holder's release")
                        .isFalse();
                assertThat(holder.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL))
                                .isAcquired())
                        .as("still held by the other")
                        .isFalse();
                String again = JpaTestOwners.owner();
                assertThat(holder.acquire(Acquisition.of(key + ":after", again, TTL))
                                .isAcquired())
                        .as("the holder's instance works on a new connection")
                        .isTrue();
                assertThat(holder.release(key + ":after", again)).isTrue();
            }
        } finally {
            f1.close();
            f2.close();
        }
    }

    @Test
    void keysDifferingOnlyInCaseTrailingSpaceOrNormalFormAreDistinctLocksAcrossInstances() {
        Backend backend = backend();
        String table = backend.tableName("advkeys");
        String longPrefix = "distinct:" + "x".repeat(90) + ":"; // beyond GET_LOCK's 64 chars: a hashed name
        String nfc = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFC);
        String nfd = Normalizer.normalize("caf\u00e9", Normalizer.Form.NFD);
        List<String[]> pairs = List.of(
                new String[] {"k", "K"},
                new String[] {"a", "a "},
                new String[] {nfc, nfd},
                new String[] {"Key", "KEY"},
                new String[] {longPrefix + "k", longPrefix + "K"},
                new String[] {longPrefix + "a", longPrefix + "a "},
                new String[] {longPrefix + nfc, longPrefix + nfd});
        EntityManagerFactory f1 = backend.newFactory();
        EntityManagerFactory f2 = backend.newFactory();
        try (JpaLockStore s1 = backend.store(f1, table, LockMode.ADVISORY);
                JpaLockStore s2 = backend.store(f2, table, LockMode.ADVISORY)) {
            String run = UUID.randomUUID().toString();
            for (String[] pair : pairs) {
                String a = pair[0].startsWith(longPrefix)
                        ? pair[0].replace("distinct:", "distinct:" + run)
                        : run + pair[0];
                String b = pair[1].startsWith(longPrefix)
                        ? pair[1].replace("distinct:", "distinct:" + run)
                        : run + pair[1];
                String ownerA = JpaTestOwners.owner();
                String ownerB = JpaTestOwners.owner();
                assertThat(s1.acquire(Acquisition.of(a, ownerA, TTL)).isAcquired())
                        .as("instance 1 takes '%s'", a)
                        .isTrue();
                assertThat(s2.acquire(Acquisition.of(b, ownerB, TTL)).isAcquired())
                        .as("'%s' is a lock apart from '%s'", b, a)
                        .isTrue();
                assertThat(s2.acquire(Acquisition.of(a, JpaTestOwners.owner(), TTL))
                                .isAcquired())
                        .as("'%s' is one lock", a)
                        .isFalse();
                assertThat(s1.acquire(Acquisition.of(b, JpaTestOwners.owner(), TTL))
                                .isAcquired())
                        .as("'%s' is one lock", b)
                        .isFalse();
                assertThat(s1.release(a, ownerA)).isTrue();
                assertThat(s2.release(b, ownerB)).isTrue();
            }
        } finally {
            f1.close();
            f2.close();
        }
    }

    @Test
    void tokensKeepGrowingAcrossTableAndAdvisoryModeOnOneSequence() {
        Backend backend = backend();
        String table = backend.tableName("advmix");
        String key = "mix:" + UUID.randomUUID();
        try (JpaLockStore tableStore = backend.store(backend.sharedFactory(), table, LockMode.TABLE);
                JpaLockStore advisoryStore = backend.store(backend.sharedFactory(), table, LockMode.ADVISORY)) {
            long last = 0;
            for (int round = 0; round < 20; round++) {
                JpaLockStore store = round % 2 == 0 ? tableStore : advisoryStore;
                String owner = JpaTestOwners.owner();
                long token = store.acquire(Acquisition.of(key, owner, TTL)).fencingToken();
                assertThat(token)
                        .as("token of round %d (%s mode)", round, store.mode())
                        .isGreaterThan(last);
                last = token;
                assertThat(store.release(key, owner)).isTrue();
            }
        }
    }

    @Test
    void fencedWritesAreRefusedInAdvisoryMode() {
        Backend backend = backend();
        try (JpaLockStore store =
                backend.store(backend.sharedFactory(), backend.tableName("advmix"), LockMode.ADVISORY)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(store::fencedWrites)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("advisory");
        }
    }

    @Test
    @Tag("namespace")
    void aTableNamedInAnotherLetterCaseIsOneLockNamespace() {
        Backend backend = backend();
        // PostgreSQL folds unquoted names to lower case; MariaDB does so with lower_case_table_names=1 (a
        // private server), so on both the two spellings name one table, and table mode excludes on it.
        String url = backend.database() == JpaDatabase.POSTGRESQL
                ? backend.url()
                : TestDatabases.mariaDbWithCaseInsensitiveNames();
        String table = backend.tableName("advcase");
        EntityManagerFactory f1 = backend.newFactory(url);
        EntityManagerFactory f2 = backend.newFactory(url);
        try (JpaLockStore lower = backend.store(f1, table, LockMode.ADVISORY);
                JpaLockStore upper = backend.store(f2, table.toUpperCase(Locale.ROOT), LockMode.ADVISORY)) {
            assertOneLockNamespace(lower, upper, "case:" + UUID.randomUUID());
        } finally {
            f1.close();
            f2.close();
        }
    }

    @Test
    @Tag("namespace")
    void aStoreResolvingItsTableThroughAnotherDefaultSchemaIsOneLockNamespace() throws SQLException {
        Backend backend = backend();
        String table = backend.tableName("advpath");
        String other = backend.tableName("advschema");
        String url = backend.url();
        String otherUrl;
        String otherTable;
        if (backend.database() == JpaDatabase.POSTGRESQL) {
            // current_schema() is the first schema of the path that exists, here one without the table, which
            // the statements find in public
            backend.execute("CREATE SCHEMA IF NOT EXISTS " + other);
            otherUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + other + ",public";
            otherTable = table;
        } else {
            // MariaDB has no search path: the same table, qualified, from a connection to another database
            backend.execute("CREATE DATABASE IF NOT EXISTS " + other);
            otherUrl = url.replaceFirst("(//[^/]+/)[^?]*", "$1" + other);
            try (Connection c = TestDatabases.connect(backend.database())) {
                otherTable = single(c, "SELECT DATABASE()") + "." + table;
            }
        }
        EntityManagerFactory f1 = backend.newFactory(url);
        EntityManagerFactory f2 = backend.newFactory(otherUrl);
        try (JpaLockStore creator = backend.store(f1, table, LockMode.ADVISORY)) {
            // creates the table and the sequence where the first URL puts them
            creator.acquire(Acquisition.of("path:create", JpaTestOwners.owner(), TTL));
            try (JpaLockStore onPath = JpaLockStore.builder(f2)
                    .table(otherTable)
                    .sequence(otherTable + "_seq")
                    .schemaAction(SchemaAction.NONE)
                    .mode(LockMode.ADVISORY)
                    .build()) {
                assertOneLockNamespace(creator, onPath, "path:" + UUID.randomUUID());
            }
        } finally {
            f1.close();
            f2.close();
            backend.execute(
                    backend.database() == JpaDatabase.POSTGRESQL
                            ? "DROP SCHEMA IF EXISTS " + other
                            : "DROP DATABASE IF EXISTS " + other);
        }
    }

    @Test
    @Tag("sequence")
    void aFencingSequenceThatWentBackIsRefusedByAStoreThatSawHigherTokens() {
        Backend backend = backend();
        String table = backend.tableName("advback");
        String key = "back:" + UUID.randomUUID();
        EntityManagerFactory f2 = backend.newFactory();
        try (JpaLockStore store = backend.store(backend.sharedFactory(), table, LockMode.ADVISORY);
                JpaLockStore other = backend.store(f2, table, LockMode.ADVISORY)) {
            long last = 0;
            for (int round = 0; round < 5; round++) {
                String owner = JpaTestOwners.owner();
                last = store.acquire(Acquisition.of(key, owner, TTL)).fencingToken();
                assertThat(store.release(key, owner)).isTrue();
            }

            backend.execute("ALTER SEQUENCE " + table + "_seq RESTART"); // as a restore of an older backup does

            long highest = last;
            assertThatThrownBy(() -> {
                        AcquireResult r = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL));
                        throw new AssertionError("acquired with token " + r.fencingToken() + " after " + highest);
                    })
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("went back");
            String owner = JpaTestOwners.owner();
            assertThat(other.acquire(Acquisition.of(key, owner, TTL)).isAcquired())
                    .as("the refused acquisition freed the lock it had taken")
                    .isTrue();
            assertThat(other.release(key, owner)).isTrue();

            backend.execute("ALTER SEQUENCE " + table + "_seq RESTART WITH " + (last + 100));
            assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL))
                            .fencingToken())
                    .as("the store's token once the sequence is above its tokens again")
                    .isGreaterThan(last);
        } finally {
            f2.close();
        }
    }

    /** Both stores take one database lock for a key: the second is refused while the first holds it, and after. */
    private static void assertOneLockNamespace(JpaLockStore first, JpaLockStore second, String key) {
        String owner = JpaTestOwners.owner();
        long token = first.acquire(Acquisition.of(key, owner, TTL)).fencingToken();
        AcquireResult both = second.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL));
        assertThat(both.isAcquired())
                .as("%s while %s holds '%s' (token %d); got %s", second, first, key, token, both)
                .isFalse();
        assertThat(first.release(key, owner)).isTrue();
        String next = JpaTestOwners.owner();
        assertThat(second.acquire(Acquisition.of(key, next, TTL)).fencingToken())
                .isGreaterThan(token);
        assertThat(first.acquire(Acquisition.of(key, JpaTestOwners.owner(), TTL))
                        .isAcquired())
                .as("%s while %s holds '%s'", first, second, key)
                .isFalse();
        assertThat(second.release(key, next)).isTrue();
    }

    /** Ends the database session that holds the key's lock, and waits until the database has freed the lock. */
    private void killSessionHolding(String table, String key) throws SQLException {
        JpaDatabase database = backend().database();
        try (Connection c = TestDatabases.connect(database)) {
            if (database == JpaDatabase.POSTGRESQL) {
                LockName name = LockName.of(single(c, "SELECT current_schema()") + "." + table, key);
                String lockedBy = "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
                        + " AND classid::bigint = " + (name.id() >>> 32) + " AND objid::bigint = "
                        + (name.id() & 0xFFFF_FFFFL);
                String pid = single(c, lockedBy);
                assertThat(pid).as("the session holding '%s'", key).isNotNull();
                assertThat(single(c, "SELECT pg_terminate_backend(" + pid + ", 10000)"))
                        .isEqualTo("t");
                awaitNull(c, lockedBy);
            } else {
                LockName name = LockName.of(single(c, "SELECT DATABASE()") + "." + table, key);
                String lockedBy = "SELECT IS_USED_LOCK('" + name.name().replace("'", "''") + "')";
                String id = single(c, lockedBy);
                assertThat(id).as("the session holding '%s'", key).isNotNull();
                try (var st = c.createStatement()) {
                    st.execute("KILL " + Long.parseLong(id));
                }
                awaitNull(c, lockedBy);
            }
        }
    }

    private static void awaitNull(Connection c, String sql) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(5))
                .alias("the database frees the killed session's lock")
                .until(() -> single(c, sql) == null);
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
