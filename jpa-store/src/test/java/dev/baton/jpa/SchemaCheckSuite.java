package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.internal.DialectFactory;
import dev.baton.jpa.internal.SchemaScript;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Schemas that break exclusion or fencing are refused at the store's first connection, under every
 * schema action ({@code none}, {@code validate}, and {@code create} on an existing table), with a
 * {@link LockConfigurationException} that names the problem and the DDL that fixes it; running that
 * DDL makes the schema acceptable. Each broken schema is the shipped DDL with one thing changed.
 * Where the consequence can be shown with two owners (tokens that go back, two holders, two keys
 * that are one lock), a second test plays it: the store must refuse to run, or the consequence must
 * not happen.
 */
@Tag("schema-checks")
public abstract class SchemaCheckSuite {

    private static final Pattern FIX = Pattern.compile("Fix: (.+)$", Pattern.MULTILINE);

    /** @return the database and provider to test */
    protected abstract Backend backend();

    /**
     * A schema that is the shipped one with one change.
     *
     * @param name what is wrong, also the test's name
     * @param database where it applies
     * @param setup statements to run first (a collation), with {@code $t} for the table name
     * @param change turns the shipped DDL into the broken one
     * @param mentions what the refusal must name ({@code $t}, {@code $s}: table and sequence)
     */
    record Broken(
            String name,
            JpaDatabase database,
            List<String> setup,
            UnaryOperator<String> change,
            List<String> mentions) {

        Broken(String name, JpaDatabase database, UnaryOperator<String> change, String... mentions) {
            this(name, database, List.of(), change, List.of(mentions));
        }
    }

    private static UnaryOperator<String> replace(String from, String to) {
        return ddl -> ddl.replace(from, to);
    }

    /** The shipped DDL without some of the turn columns: a table created before turns existed. */
    private static UnaryOperator<String> withoutColumns(String... columns) {
        return ddl -> {
            String changed = ddl;
            for (String column : columns) {
                changed = changed.replaceAll("(?m)^\\s*" + column + "\\s[^\\n]*\\n", "");
            }
            return changed.replaceAll(",(\\s*)\\)$", "$1)"); // the comma before the closing parenthesis
        };
    }

    /** What a refusal of missing turn columns names: each column and the ALTER TABLE that adds it. */
    private static String[] addColumns(String... columns) {
        List<String> mentions = new ArrayList<>();
        for (String column : columns) {
            mentions.add(column);
            mentions.add("ALTER TABLE $t ADD COLUMN " + column);
        }
        return mentions.toArray(String[]::new);
    }

    /** A table created before turns existed, and one that lost one column, on every database. */
    private static void addTurnCases(List<Broken> cases, JpaDatabase database) {
        String name = database.folder();
        cases.add(new Broken(
                name + " without turn columns",
                database,
                withoutColumns("turn_waiter", "turn_since", "turn_until"),
                addColumns("turn_waiter", "turn_since", "turn_until")));
        cases.add(new Broken(
                name + " without turn_until", database, withoutColumns("turn_until"), addColumns("turn_until")));
    }

    /** A table of shared leases keyed by the key alone, on every database. */
    private static void addSharedTableCases(List<Broken> cases, JpaDatabase database) {
        String name = database.folder();
        cases.add(new Broken(
                name + " shared leases keyed by the key alone",
                database,
                replace("PRIMARY KEY (lock_key, owner)", "PRIMARY KEY (lock_key)"),
                "$t_shared",
                "(lock_key, owner)",
                "ADD PRIMARY KEY (lock_key, owner)"));
    }

    static List<Broken> cases() {
        List<Broken> cases = new ArrayList<>();
        for (JpaDatabase database : JpaDatabase.values()) {
            addTurnCases(cases, database);
            addSharedTableCases(cases, database);
        }
        cases.add(new Broken(
                "postgresql turn_until without time zone",
                JpaDatabase.POSTGRESQL,
                replace("turn_until  TIMESTAMP(6) WITH TIME ZONE", "turn_until  TIMESTAMP(6)"),
                "turn_until",
                "ALTER TABLE $t ALTER COLUMN turn_until TYPE TIMESTAMP(6) WITH TIME ZONE"));
        cases.add(new Broken(
                "mariadb turn_waiter ascii_general_ci",
                JpaDatabase.MARIADB,
                replace(
                        "turn_waiter VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin",
                        "turn_waiter VARCHAR(64) CHARACTER SET ascii COLLATE ascii_general_ci"),
                "turn_waiter",
                "ascii_general_ci",
                "MODIFY turn_waiter VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin"));
        cases.add(new Broken(
                "h2 turn_since without fraction",
                JpaDatabase.H2,
                replace("turn_since  TIMESTAMP(6)", "turn_since  TIMESTAMP(0)"),
                "turn_since",
                "ALTER TABLE $t ALTER COLUMN turn_since SET DATA TYPE TIMESTAMP(6) WITH TIME ZONE"));
        JpaDatabase pg = JpaDatabase.POSTGRESQL;
        cases.add(new Broken(
                "postgresql sequence CACHE 50",
                pg,
                replace("CACHE 1", "CACHE 50"),
                "$s",
                "CACHE 50",
                "ALTER SEQUENCE $s CACHE 1"));
        cases.add(new Broken(
                "postgresql sequence INCREMENT BY -1",
                pg,
                replace("START WITH 1 INCREMENT BY 1", "START WITH -1 INCREMENT BY -1"),
                "$s",
                "INCREMENT BY -1",
                "INCREMENT BY 1"));
        cases.add(new Broken(
                "postgresql sequence CYCLE",
                pg,
                replace("NO CYCLE", "MAXVALUE 1000000 CYCLE"),
                "$s",
                "CYCLE",
                "NO CYCLE"));
        cases.add(new Broken(
                "postgresql key column CHAR(500)",
                pg,
                replace("lock_key   VARCHAR(500)", "lock_key   CHAR(500)"),
                "lock_key",
                "character(500)",
                "ALTER TABLE $t ALTER COLUMN lock_key TYPE VARCHAR(500) COLLATE \"C\""));
        cases.add(new Broken(
                "postgresql key column VARCHAR(100)",
                pg,
                replace("lock_key   VARCHAR(500)", "lock_key   VARCHAR(100)"),
                "lock_key",
                "character varying(100)",
                "500"));
        cases.add(new Broken(
                "postgresql expiry without fraction",
                pg,
                replace("expires_at TIMESTAMP(6)", "expires_at TIMESTAMP(0)"),
                "expires_at",
                "timestamp(0) with time zone",
                "TYPE TIMESTAMP(6) WITH TIME ZONE"));
        cases.add(new Broken(
                "postgresql expiry without time zone",
                pg,
                replace("TIMESTAMP(6) WITH TIME ZONE", "TIMESTAMP(6) WITHOUT TIME ZONE"),
                "expires_at",
                "timestamp(6) without time zone",
                "TYPE TIMESTAMP(6) WITH TIME ZONE"));
        cases.add(new Broken(
                "postgresql token INTEGER",
                pg,
                replace("token      BIGINT", "token      INTEGER"),
                "token",
                "integer",
                "TYPE BIGINT"));
        cases.add(new Broken(
                "postgresql no primary key",
                pg,
                replace(" NOT NULL PRIMARY KEY", " NOT NULL"),
                "primary key",
                "ADD PRIMARY KEY (lock_key)"));
        cases.add(new Broken(
                "postgresql owner VARCHAR(20)",
                pg,
                replace("owner      VARCHAR(64)", "owner      VARCHAR(20)"),
                "owner",
                "64"));
        cases.add(new Broken(
                "postgresql unlogged table",
                pg,
                replace("CREATE TABLE", "CREATE UNLOGGED TABLE"),
                "UNLOGGED",
                "ALTER TABLE $t SET LOGGED"));
        cases.add(new Broken(
                "postgresql key column with a non-deterministic collation",
                pg,
                List.of("CREATE COLLATION IF NOT EXISTS $t_ci (provider = icu, locale = 'und-u-ks-level2',"
                        + " deterministic = false)"),
                replace("COLLATE \"C\" NOT NULL PRIMARY KEY", "COLLATE $t_ci NOT NULL PRIMARY KEY"),
                List.of("lock_key", "$t_ci", "non-deterministic", "COLLATE \"C\"")));
        cases.add(new Broken(
                "postgresql key column with a linguistic (ICU) collation",
                pg,
                replace("COLLATE \"C\" NOT NULL PRIMARY KEY", "COLLATE \"und-x-icu\" NOT NULL PRIMARY KEY"),
                "lock_key",
                "und-x-icu",
                "COLLATE \"C\""));
        cases.add(new Broken(
                "postgresql owner with a non-deterministic collation",
                pg,
                List.of("CREATE COLLATION IF NOT EXISTS $t_ci (provider = icu, locale = 'und-u-ks-level2',"
                        + " deterministic = false)"),
                replace("VARCHAR(64)  COLLATE \"C\"", "VARCHAR(64)  COLLATE $t_ci"),
                List.of("owner", "$t_ci", "non-deterministic")));

        JpaDatabase maria = JpaDatabase.MARIADB;
        cases.add(new Broken(
                "mariadb key column utf8mb4_bin (PAD SPACE)",
                maria,
                replace("COLLATE utf8mb4_nopad_bin", "COLLATE utf8mb4_bin"),
                "lock_key",
                "utf8mb4_bin",
                "MODIFY lock_key VARCHAR(500) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL"));
        cases.add(new Broken(
                "mariadb key column utf8mb4_general_ci",
                maria,
                replace("COLLATE utf8mb4_nopad_bin", "COLLATE utf8mb4_general_ci"),
                "lock_key",
                "utf8mb4_general_ci",
                "utf8mb4_nopad_bin"));
        cases.add(new Broken(
                "mariadb key column utf8mb3",
                maria,
                replace(
                        "CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin",
                        "CHARACTER SET utf8mb3 COLLATE utf8mb3_nopad_bin"),
                "lock_key",
                "utf8mb3",
                "utf8mb4_nopad_bin"));
        cases.add(new Broken(
                "mariadb key column VARCHAR(100)",
                maria,
                replace("lock_key   VARCHAR(500)", "lock_key   VARCHAR(100)"),
                "lock_key",
                "500"));
        cases.add(new Broken(
                "mariadb expiry DATETIME without fraction",
                maria,
                replace("DATETIME(6)", "DATETIME"),
                "expires_at",
                "datetime",
                "MODIFY expires_at DATETIME(6) NOT NULL"));
        cases.add(new Broken(
                "mariadb expiry TIMESTAMP(6)",
                maria,
                replace("DATETIME(6)", "TIMESTAMP(6)"),
                "expires_at",
                "timestamp",
                "DATETIME(6)"));
        cases.add(new Broken(
                "mariadb token INT",
                maria,
                replace("token      BIGINT", "token      INT"),
                "token",
                "MODIFY token BIGINT NOT NULL"));
        cases.add(new Broken(
                "mariadb owner ascii_general_ci",
                maria,
                replace("COLLATE ascii_bin", "COLLATE ascii_general_ci"),
                "owner",
                "ascii_general_ci",
                "ascii_bin"));
        cases.add(new Broken(
                "mariadb no primary key",
                maria,
                ddl -> ddl.replaceAll(",\\s*PRIMARY KEY \\(lock_key\\)", ""),
                "primary key",
                "ADD PRIMARY KEY (lock_key)"));
        cases.add(new Broken(
                "mariadb primary key on a prefix",
                maria,
                replace("PRIMARY KEY (lock_key)", "PRIMARY KEY (lock_key(100))"),
                "prefix",
                "100"));
        cases.add(new Broken(
                "mariadb another unique key",
                maria,
                replace("PRIMARY KEY (lock_key)", "PRIMARY KEY (lock_key), UNIQUE KEY $t_owner (owner)"),
                "$t_owner",
                "DROP INDEX `$t_owner`"));
        cases.add(new Broken(
                "mariadb MEMORY table",
                maria,
                replace("ENGINE = InnoDB", "ENGINE = MEMORY"),
                "MEMORY",
                "ENGINE = InnoDB"));
        cases.add(new Broken(
                "mariadb sequence CYCLE",
                maria,
                replace("NOCYCLE", "MAXVALUE 1000000 CYCLE"),
                "$s",
                "CYCLE",
                "NOCYCLE"));
        cases.add(new Broken(
                "mariadb sequence INCREMENT BY 0",
                maria,
                replace("INCREMENT BY 1", "INCREMENT BY 0"),
                "$s",
                "INCREMENT BY 0",
                "INCREMENT BY 1"));
        cases.add(new Broken(
                "mariadb sequence INCREMENT BY -1",
                maria,
                replace("START WITH 1 INCREMENT BY 1", "START WITH -1 INCREMENT BY -1 MINVALUE -1000000 MAXVALUE -1"),
                "$s",
                "INCREMENT BY -1",
                "INCREMENT BY 1"));

        JpaDatabase h2 = JpaDatabase.H2;
        cases.add(new Broken(
                "h2 key column VARCHAR_IGNORECASE",
                h2,
                replace("lock_key   VARCHAR(500)", "lock_key   VARCHAR_IGNORECASE(500)"),
                "lock_key",
                "VARCHAR_IGNORECASE",
                "ALTER TABLE $t ALTER COLUMN lock_key SET DATA TYPE VARCHAR(500)"));
        cases.add(new Broken(
                "h2 key column CHAR(500)",
                h2,
                replace("lock_key   VARCHAR(500)", "lock_key   CHAR(500)"),
                "lock_key",
                "CHARACTER",
                "VARCHAR(500)"));
        cases.add(new Broken(
                "h2 expiry without fraction",
                h2,
                replace("TIMESTAMP(6) WITH TIME ZONE", "TIMESTAMP(0) WITH TIME ZONE"),
                "expires_at",
                "TIMESTAMP(6) WITH TIME ZONE"));
        cases.add(new Broken(
                "h2 expiry without time zone",
                h2,
                replace("TIMESTAMP(6) WITH TIME ZONE", "TIMESTAMP(6)"),
                "expires_at",
                "TIMESTAMP(6) WITH TIME ZONE"));
        cases.add(new Broken(
                "h2 token INTEGER", h2, replace("token      BIGINT", "token      INTEGER"), "token", "BIGINT"));
        cases.add(new Broken(
                "h2 no primary key",
                h2,
                replace(" NOT NULL PRIMARY KEY", " NOT NULL"),
                "primary key",
                "ADD PRIMARY KEY (lock_key)"));
        cases.add(new Broken(
                "h2 sequence CYCLE", h2, replace("NO CYCLE", "MAXVALUE 1000000 CYCLE"), "$s", "CYCLE", "NO CYCLE"));
        cases.add(new Broken(
                "h2 sequence INCREMENT BY -1",
                h2,
                replace("START WITH 1 INCREMENT BY 1", "START WITH -1 INCREMENT BY -1"),
                "$s",
                "INCREMENT BY -1",
                "INCREMENT BY 1"));
        return cases;
    }

    @TestFactory
    Stream<DynamicTest> brokenSchemasAreRefusedUnderEverySchemaActionWithTheFix() {
        Backend backend = backend();
        List<Broken> mine =
                cases().stream().filter(c -> c.database() == backend.database()).toList();
        assertThat(mine).isNotEmpty();
        return mine.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> refusedThenFixed(backend, c)));
    }

    private void refusedThenFixed(Backend backend, Broken broken) throws Exception {
        String table = tableFor(backend, broken.name());
        String sequence = table + "_seq";
        try {
            createBroken(backend, broken, table);
            String message = null;
            for (SchemaAction action : SchemaAction.values()) {
                try (JpaLockStore store = store(backend.sharedFactory(), table, action)) {
                    Throwable thrown = catchFirstOperation(store);
                    assertThat(thrown)
                            .as("%s under schema-action %s", broken.name(), action)
                            .isInstanceOf(LockConfigurationException.class);
                    message = thrown.getMessage();
                    for (String mention : broken.mentions()) {
                        assertThat(message)
                                .as("%s under %s", broken.name(), action)
                                .contains(mention.replace("$t", table).replace("$s", sequence));
                    }
                    // a refused store never half-connects: its next operation checks again, and is refused again
                    assertThat(catchFirstOperation(store)).isInstanceOf(LockConfigurationException.class);
                }
            }
            List<String> fixes = fixes(message);
            assertThat(fixes).as("the DDL that fixes it, in: %s", message).isNotEmpty();
            backend.execute(fixes.toArray(String[]::new));
            for (SchemaAction action : SchemaAction.values()) {
                try (JpaLockStore store = store(backend.sharedFactory(), table, action)) {
                    String key = "fixed:" + UUID.randomUUID();
                    String owner = JpaTestOwners.owner();
                    assertThat(store.acquire(Acquisition.of(key, owner, 10_000)).isAcquired())
                            .as("after %s", fixes)
                            .isTrue();
                    assertThat(store.release(key, owner)).isTrue();
                }
            }
        } finally {
            dropQuietly(backend, table, broken);
        }
    }

    /**
     * A schema made before shared leases existed (the lock table and the sequence, no table of shared leases) is
     * refused under {@code none} and {@code validate}, naming the scripts that add the table and its {@code CREATE
     * TABLE}; running that statement makes it run, shared leases included. Under {@code create} the store adds the
     * table itself, and a lock held in the old schema stays held.
     */
    @Test
    void aSchemaFromBeforeSharedLeasesIsRefusedWithItsFixOrCompletedByCreate() {
        Backend backend = backend();
        Broken old = new Broken(
                "before shared leases",
                backend.database(),
                ddl -> ddl.startsWith("CREATE TABLE") && ddl.contains(SchemaScript.SHARED_TABLE_SUFFIX + " (")
                        ? "SELECT 1"
                        : ddl);
        String refused = tableFor(backend, "noshared");
        String completed = tableFor(backend, "noshared create");
        try {
            createBroken(backend, old, refused);
            String message = null;
            for (SchemaAction action : List.of(SchemaAction.NONE, SchemaAction.VALIDATE)) {
                try (JpaLockStore store = store(backend.sharedFactory(), refused, action)) {
                    Throwable thrown = catchFirstOperation(store);
                    assertThat(thrown).as(action.name()).isInstanceOf(LockConfigurationException.class);
                    message = thrown.getMessage();
                }
            }
            assertThat(message)
                    .contains(
                            SchemaScript.sharedTableOf(refused) + " does not exist",
                            "schema-action=create",
                            "V2__baton_shared_leases.sql",
                            "baton-locks-2-" + backend.database().folder(),
                            "Fix: CREATE TABLE IF NOT EXISTS " + SchemaScript.sharedTableOf(refused) + " (lock_key");
            backend.execute(fixes(message).toArray(String[]::new));
            try (JpaLockStore store = store(backend.sharedFactory(), refused, SchemaAction.VALIDATE)) {
                assertThat(store.acquire(new Acquisition("fixed", JpaTestOwners.owner(), 10_000, 0, null, 2))
                                .isAcquired())
                        .isTrue();
            }

            createBroken(backend, old, completed);
            String holder = JpaTestOwners.owner();
            backend.execute("INSERT INTO " + completed + " (lock_key, owner, token, expires_at) VALUES ('held', '"
                    + holder + "', 1, " + farFuture(backend.database()) + ")");
            try (JpaLockStore store = store(backend.sharedFactory(), completed, SchemaAction.CREATE)) {
                assertThat(store.acquire(new Acquisition("held", JpaTestOwners.owner(), 10_000, 0, null, 2))
                                .isAcquired())
                        .as("a shared lease of a key held in the old schema")
                        .isFalse();
                assertThat(store.acquire(new Acquisition("free", JpaTestOwners.owner(), 10_000, 0, null, 2))
                                .isAcquired())
                        .isTrue();
                assertThat(store.release("held", holder)).isTrue();
            }
        } finally {
            dropQuietly(backend, refused, old);
            dropQuietly(backend, completed, old);
        }
    }

    private static String farFuture(JpaDatabase database) {
        return database == JpaDatabase.MARIADB
                ? "TIMESTAMP '2999-01-01 00:00:00'"
                : "TIMESTAMP WITH TIME ZONE '2999-01-01 00:00:00+00'";
    }

    @Test
    void theShippedSchemaPassesUnderEveryAction() {
        Backend backend = backend();
        String table = backend.tableName("shipped");
        backend.execute(DialectFactory.create(backend.database(), table, table + "_seq")
                .createStatements()
                .toArray(String[]::new));
        for (SchemaAction action : SchemaAction.values()) {
            try (JpaLockStore store = store(backend.sharedFactory(), table, action)) {
                assertThat(store.acquire(Acquisition.of("shipped:" + UUID.randomUUID(), JpaTestOwners.owner(), 1000))
                                .isAcquired())
                        .as(action.name())
                        .isTrue();
            }
        }
    }

    /**
     * Item 5's first example: a PostgreSQL sequence with {@code CACHE 50} gives each session its own
     * block, so two instances taking turns on one key get tokens 1, 51, 2, 52: a stale holder's token
     * passes a fence check. MariaDB and H2 sequences hand out cached values in order to every
     * connection; there the schema is accepted and the tokens must grow.
     */
    @Test
    void aCachedSequenceIsRefusedOrTokensStillGrow() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("cache");
        UnaryOperator<String> cached = switch (backend.database()) {
            case POSTGRESQL -> replace("CACHE 1", "CACHE 50");
            case MARIADB -> replace("NOCYCLE", "NOCYCLE CACHE 50");
            case H2 -> replace("NO CYCLE", "NO CYCLE CACHE 50");
        };
        createBroken(backend, new Broken("cache", backend.database(), cached), table);
        EntityManagerFactory one = backend.newFactory();
        EntityManagerFactory two = backend.newFactory();
        try (JpaLockStore first = store(one, table, SchemaAction.NONE);
                JpaLockStore second = store(two, table, SchemaAction.NONE)) {
            String key = "cache:" + UUID.randomUUID();
            List<Long> tokens = new ArrayList<>();
            for (int turn = 0; turn < 8; turn++) {
                JpaLockStore store = turn % 2 == 0 ? first : second;
                String owner = JpaTestOwners.owner();
                AcquireResult result;
                try {
                    result = store.acquire(Acquisition.of(key, owner, 30_000));
                } catch (LockConfigurationException refused) {
                    assertThat(backend.database())
                            .as("only PostgreSQL's sequence cache is per session")
                            .isEqualTo(JpaDatabase.POSTGRESQL);
                    assertThat(refused).hasMessageContaining("CACHE 50");
                    return;
                }
                assertThat(result.isAcquired()).isTrue();
                tokens.add(result.fencingToken());
                assertThat(store.release(key, owner)).isTrue();
            }
            assertThat(tokens)
                    .as("tokens of one key, two instances taking turns")
                    .isSorted()
                    .doesNotHaveDuplicates();
            assertThat(backend.database())
                    .as("PostgreSQL must refuse a sequence with CACHE 50; tokens were %s", tokens)
                    .isNotEqualTo(JpaDatabase.POSTGRESQL);
        } finally {
            one.close();
            two.close();
        }
    }

    /**
     * Item 5's second example: with {@code DATETIME} (no fraction) MariaDB cuts the fraction off the
     * expiry, so a fresh 500 ms lease has often ended when it is written, and a second owner takes
     * the key at once: two holders. The store must refuse the column.
     */
    @Test
    void anExpiryWithoutFractionIsRefusedOrNoLeaseIsTakenOver() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("secs");
        UnaryOperator<String> seconds = switch (backend.database()) {
            case POSTGRESQL -> replace("TIMESTAMP(6)", "TIMESTAMP(0)");
            case MARIADB -> replace("DATETIME(6)", "DATETIME");
            case H2 -> replace("TIMESTAMP(6)", "TIMESTAMP(0)");
        };
        createBroken(backend, new Broken("secs", backend.database(), seconds), table);
        try (JpaLockStore store = store(backend.sharedFactory(), table, SchemaAction.NONE)) {
            long ttl = 500;
            List<String> takenOver = new ArrayList<>();
            for (int round = 0; round < 20; round++) {
                String key = "secs:" + UUID.randomUUID();
                long start = System.nanoTime();
                AcquireResult first;
                try {
                    first = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), ttl));
                } catch (LockConfigurationException refused) {
                    assertThat(refused).hasMessageContaining("expires_at");
                    return;
                }
                assertThat(first.isAcquired()).isTrue();
                AcquireResult second = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), ttl));
                long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
                if (second.isAcquired() && elapsedMillis < ttl) {
                    takenOver.add("round " + round + ": taken over after " + elapsedMillis + " ms");
                }
            }
            assertThat(takenOver)
                    .as("fresh %d ms leases taken by a second owner at once", ttl)
                    .isEmpty();
            assertThat(backend.database())
                    .as("a seconds-only expiry must be refused")
                    .isNotEqualTo(JpaDatabase.MARIADB);
        }
    }

    /**
     * Item 4 and the case-insensitive collations of item 5: two keys that differ by case or trailing
     * space must be two locks, under {@code schema-action=create} on an existing table too.
     */
    @Test
    void keysThatDifferByCaseOrTrailingSpaceAreTwoLocksOrTheTableIsRefused() throws Exception {
        Backend backend = backend();
        List<Broken> merging = switch (backend.database()) {
            case POSTGRESQL ->
                List.of(new Broken(
                        "ci",
                        backend.database(),
                        List.of("CREATE COLLATION IF NOT EXISTS $t_ci (provider = icu, locale = 'und-u-ks-level2',"
                                + " deterministic = false)"),
                        replace("COLLATE \"C\" NOT NULL PRIMARY KEY", "COLLATE $t_ci NOT NULL PRIMARY KEY"),
                        List.of()));
            case MARIADB ->
                List.of(
                        new Broken(
                                "bin", backend.database(), replace("COLLATE utf8mb4_nopad_bin", "COLLATE utf8mb4_bin")),
                        new Broken(
                                "ci",
                                backend.database(),
                                replace("COLLATE utf8mb4_nopad_bin", "COLLATE utf8mb4_general_ci")));
            case H2 ->
                List.of(new Broken(
                        "ci",
                        backend.database(),
                        replace("lock_key   VARCHAR(500)", "lock_key   VARCHAR_IGNORECASE(500)")));
        };
        for (Broken broken : merging) {
            String table = tableFor(backend, "merge " + broken.name());
            try {
                createBroken(backend, broken, table);
                try (JpaLockStore store = store(backend.sharedFactory(), table, SchemaAction.CREATE)) {
                    String base = "merge:" + UUID.randomUUID() + ":k";
                    AcquireResult first;
                    try {
                        first = store.acquire(Acquisition.of(base, JpaTestOwners.owner(), 30_000));
                    } catch (LockConfigurationException refused) {
                        assertThat(refused).hasMessageContaining("lock_key");
                        continue;
                    }
                    assertThat(first.isAcquired()).isTrue();
                    for (String other : new String[] {base.toUpperCase(Locale.ROOT), base + " "}) {
                        assertThat(store.acquire(Acquisition.of(other, JpaTestOwners.owner(), 30_000))
                                        .isAcquired())
                                .as("'%s' after '%s' was taken, on a %s key column", other, base, broken.name())
                                .isTrue();
                    }
                }
            } finally {
                dropQuietly(backend, table, broken);
            }
        }
    }

    /**
     * Without a primary key on {@code lock_key}, MariaDB's upsert never meets a duplicate: a second
     * owner inserts a second row for the same key and both hold it.
     */
    @Test
    void aTableWithoutPrimaryKeyIsRefusedOrHoldsOneOwnerPerKey() {
        Backend backend = backend();
        String table = backend.tableName("nopk");
        UnaryOperator<String> noKey = backend.database() == JpaDatabase.MARIADB
                ? ddl -> ddl.replaceAll(",\\s*PRIMARY KEY \\(lock_key\\)", "")
                : replace(" NOT NULL PRIMARY KEY", " NOT NULL");
        createBroken(backend, new Broken("nopk", backend.database(), noKey), table);
        try (JpaLockStore store = store(backend.sharedFactory(), table, SchemaAction.NONE)) {
            String key = "nopk:" + UUID.randomUUID();
            AcquireResult first;
            try {
                first = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 30_000));
            } catch (LockConfigurationException refused) {
                assertThat(refused).hasMessageContaining("primary key");
                return;
            } catch (RuntimeException failed) {
                // PostgreSQL and H2 fail every operation instead (no arbiter for ON CONFLICT / two rows
                // need a race): not two holders, but the refusal must come first and say why.
                throw new AssertionError("expected a refusal naming the primary key, got " + failed, failed);
            }
            assertThat(first.isAcquired()).isTrue();
            assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 30_000))
                            .isAcquired())
                    .as("a second holder of " + key)
                    .isFalse();
            fail("a table without primary key was accepted");
        }
    }

    // --- helpers

    private static String tableFor(Backend backend, String name) {
        String purpose = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "");
        purpose = purpose.length() <= 16
                ? purpose
                : purpose.substring(0, 10) + Integer.toHexString(name.hashCode() & 0xfffff);
        return backend.tableName(purpose);
    }

    private static JpaLockStore store(EntityManagerFactory factory, String table, SchemaAction action) {
        return JpaLockStore.builder(factory)
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(action)
                .build();
    }

    private static Throwable catchFirstOperation(JpaLockStore store) {
        try {
            store.acquire(Acquisition.of("check:" + UUID.randomUUID(), JpaTestOwners.owner(), 1000));
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    private static void createBroken(Backend backend, Broken broken, String table) {
        List<String> sql = new ArrayList<>();
        for (String s : broken.setup()) {
            sql.add(s.replace("$t", table));
        }
        for (String s :
                DialectFactory.create(backend.database(), table, table + "_seq").createStatements()) {
            sql.add(broken.change().apply(s.replace("$t", table)).replace("$t", table));
        }
        // the change must have applied to one of the statements: compare with the shipped ones
        List<String> shipped =
                DialectFactory.create(backend.database(), table, table + "_seq").createStatements();
        if (broken.change() != null
                && sql.subList(broken.setup().size(), sql.size()).equals(shipped)) {
            throw new IllegalStateException(broken.name() + " changed nothing");
        }
        backend.execute(sql.toArray(String[]::new));
    }

    private static void dropQuietly(Backend backend, String table, Broken broken) {
        try (Connection c = TestDatabases.connect(backend.database());
                Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
            st.execute("DROP TABLE IF EXISTS " + table + "_shared");
            st.execute("DROP SEQUENCE IF EXISTS " + table + "_seq");
            if (!broken.setup().isEmpty() && backend.database() == JpaDatabase.POSTGRESQL) {
                st.execute("DROP COLLATION IF EXISTS " + table + "_ci");
            }
        } catch (SQLException e) {
            // the tables carry this run's suffix; external servers drop them at exit too
        }
    }

    static List<String> fixes(String message) {
        List<String> statements = new ArrayList<>();
        Matcher m = FIX.matcher(message);
        while (m.find()) {
            for (String s : m.group(1).split(";")) {
                if (!s.isBlank()) {
                    statements.add(s.strip());
                }
            }
        }
        return statements;
    }
}
