package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.jpa.internal.Dialect;
import dev.baton.jpa.internal.DialectFactory;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Catalog;
import dev.baton.jpa.testing.FreshDatabase;
import dev.baton.jpa.testing.MigrationTool;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import jakarta.persistence.EntityManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema as Flyway and Liquibase create it from what the jar ships ({@code db/baton/migration/<database>},
 * {@code db/changelog/baton/baton-changelog.xml}), each in an empty database of its own: the store
 * runs on it without creating anything ({@code schema-action=validate}, so its schema check accepts it),
 * a second run changes nothing, and the TCK's store contract passes on it. The scripts are the store's
 * own DDL with the names as placeholders, statement for statement.
 */
class MigrationTest {

    private static final String CUSTOM_TABLE = "app_locks";
    private static final String CUSTOM_SEQUENCE = "app_lock_tokens";

    /** The versions of the schema: V1 the lock table and the sequence, V2 the table of shared leases. */
    private static final int VERSIONS = 2;

    /** The migrated databases of the contract classes, dropped after the last. */
    private static final Map<String, Migrated> MIGRATED = new ConcurrentHashMap<>();

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (JpaDatabase database : JpaDatabase.values()) {
            for (MigrationTool tool : MigrationTool.values()) {
                cases.add(Arguments.of(database, tool, Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE));
                cases.add(Arguments.of(database, tool, CUSTOM_TABLE, CUSTOM_SEQUENCE));
            }
        }
        return cases.stream();
    }

    /**
     * Migrates an empty database; the store (validate) runs on it with these names; a second migration
     * runs nothing and leaves the rows (a held lock stays held).
     */
    @ParameterizedTest(name = "{0} {1} {2}/{3}")
    @MethodSource("cases")
    void migratedSchemaIsTheStoresAndRunsOnce(JpaDatabase database, MigrationTool tool, String table, String sequence) {
        try (FreshDatabase db = FreshDatabase.create(database, "mig")) {
            assertThat(tool.migrate(db, table, sequence)).as("migrations run").isEqualTo(VERSIONS);

            EntityManagerFactory factory = factory(db);
            try (JpaLockStore store = validating(factory, table, sequence)) {
                String owner = JpaTestOwners.owner();
                assertThat(store.acquire(Acquisition.of("migrated", owner, 60_000))
                                .isAcquired())
                        .isTrue();
                assertThat(count(db, "SELECT COUNT(*) FROM " + table))
                        .as("the store wrote to " + table)
                        .isEqualTo(1);

                assertThat(tool.migrate(db, table, sequence))
                        .as("migrations run again")
                        .isZero();

                assertThat(store.acquire(Acquisition.of("migrated", JpaTestOwners.owner(), 60_000))
                                .isAcquired())
                        .as("still held after the second run")
                        .isFalse();
                assertThat(store.release("migrated", owner)).isTrue();
                long first =
                        store.acquire(Acquisition.of("next", owner, 60_000)).fencingToken();
                try (JpaLockStore restarted = validating(factory, table, sequence)) {
                    assertThat(restarted
                                    .acquire(Acquisition.of("next2", owner, 60_000))
                                    .fencingToken())
                            .as("tokens from " + sequence)
                            .isGreaterThan(first);
                }
            } finally {
                factory.close();
            }
        }
    }

    /**
     * The Flyway scripts are the store's own DDL ({@code META-INF/baton/sql/<database>/create.sql}, what
     * {@code schema-action=create} runs) with the names as placeholders: statement for statement, for
     * any names: V1 and V2 together, in order.
     */
    @ParameterizedTest
    @EnumSource(JpaDatabase.class)
    void flywayScriptIsTheStoresDdl(JpaDatabase database) {
        String folder = "db/baton/migration/" + database.folder();
        String script =
                resource(folder + "/V1__baton_locks.sql") + "\n" + resource(folder + "/V2__baton_shared_leases.sql");
        assertThat(script)
                .contains("${baton_table}", "${baton_sequence}")
                .doesNotContain(Dialect.DEFAULT_TABLE + " ", Dialect.DEFAULT_SEQUENCE + " ");
        for (String[] names :
                new String[][] {{Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE}, {CUSTOM_TABLE, CUSTOM_SEQUENCE}}) {
            String replaced = script.replace("${baton_table}", names[0]).replace("${baton_sequence}", names[1]);
            List<String> generated =
                    DialectFactory.create(database, names[0], names[1]).createStatements();
            assertThat(withoutComments(replaced))
                    .as(database + " with " + names[0] + "/" + names[1])
                    .isEqualTo(String.join(";\n", generated) + ";");
        }
    }

    /**
     * In the database's catalog, what each tool creates is exactly what {@code schema-action=create}
     * creates (types, sizes, precision, collations, nullability, primary key, kind of table, every
     * attribute of the sequence): stays true when later versions add migrations.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("toolsOnEveryDatabase")
    void migratedCatalogIsTheStoreCreatedOne(JpaDatabase database, MigrationTool tool) {
        try (FreshDatabase db = FreshDatabase.create(database, "cat")) {
            assertThat(tool.migrate(db, "migrated_locks", "migrated_seq")).isEqualTo(VERSIONS);
            EntityManagerFactory factory = factory(db);
            try (JpaLockStore store = JpaLockStore.builder(factory)
                    .table("created_locks")
                    .sequence("created_seq")
                    .schemaAction(SchemaAction.CREATE)
                    .build()) {
                assertThat(store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000))
                                .isAcquired())
                        .isTrue();
            } finally {
                factory.close();
            }
            List<String> created = Catalog.describe(db, "created_locks", "created_seq");
            assertThat(created)
                    .as("what the catalog says")
                    .noneMatch(line -> line.startsWith("none"))
                    .anyMatch(line -> line.matches("(?i)primary key 1 lock_key"))
                    .hasSizeGreaterThanOrEqualTo(10);
            assertThat(Catalog.describe(db, "migrated_locks", "migrated_seq")).isEqualTo(created);
            List<String> createdShared = Catalog.describe(db, "created_locks_shared", "created_seq");
            assertThat(createdShared)
                    .as("the table of shared leases")
                    .noneMatch(line -> line.startsWith("none"))
                    .anyMatch(line -> line.matches("(?i)primary key 2 owner"));
            assertThat(Catalog.describe(db, "migrated_locks_shared", "migrated_seq"))
                    .isEqualTo(createdShared);
        }
    }

    static Stream<Arguments> toolsOnEveryDatabase() {
        return Stream.of(JpaDatabase.values())
                .flatMap(db -> Stream.of(MigrationTool.values()).map(tool -> Arguments.of(db, tool)));
    }

    /** Without the placeholders Flyway stops before it touches the database, naming the one missing. */
    @Test
    void flywayWithoutPlaceholdersFailsNamingThem() {
        try (FreshDatabase db = FreshDatabase.create(JpaDatabase.H2, "mig")) {
            Flyway flyway =
                    MigrationTool.flyway(db, "x", "y").placeholders(Map.of()).load();
            assertThatThrownBy(flyway::migrate)
                    .isInstanceOf(FlywayException.class)
                    .hasMessageContaining("No value provided for placeholder")
                    .hasMessageContaining("baton_");
            assertThat(count(db, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = 'X'"))
                    .isZero();
        }
    }

    /**
     * An application whose Flyway scans the default location {@code classpath:db/migration} does not
     * pick up the store's scripts (they would collide with its own V1, and run every database's DDL).
     */
    @Test
    void applicationsDefaultFlywayLocationDoesNotSeeTheStoresScripts() {
        try (FreshDatabase db = FreshDatabase.create(JpaDatabase.H2, "mig")) {
            Flyway flyway = Flyway.configure().dataSource(db.dataSource()).load();
            assertThat(Stream.of(flyway.info().all()).map(MigrationInfo::getScript))
                    .as("migrations found under classpath:db/migration")
                    .isEmpty();
        }
    }

    /**
     * Switching a table the store created ({@code schema-action=create}) to Flyway: with the README's
     * configuration (own history table, {@code baselineOnMigrate}, baseline version 0) V1 runs and
     * changes nothing (every statement is {@code IF NOT EXISTS}): a held lock stays held, tokens go on.
     * Without {@code baselineOnMigrate} Flyway refuses the non-empty schema. Liquibase needs nothing.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("switches")
    void switchingFromStoreCreatedSchemaKeepsLocks(JpaDatabase database, MigrationTool tool) {
        try (FreshDatabase db = FreshDatabase.create(database, "switch")) {
            EntityManagerFactory factory = factory(db);
            try {
                String owner = JpaTestOwners.owner();
                long before;
                try (JpaLockStore creating = JpaLockStore.builder(factory)
                        .schemaAction(SchemaAction.CREATE)
                        .build()) {
                    before = creating.acquire(Acquisition.of("held", owner, 60_000))
                            .fencingToken();
                }
                if (tool == MigrationTool.FLYWAY) {
                    Flyway strict = MigrationTool.flyway(db, Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE)
                            .baselineOnMigrate(false)
                            .load();
                    assertThatThrownBy(strict::migrate)
                            .isInstanceOf(FlywayException.class)
                            .hasMessageContaining("non-empty");
                }
                assertThat(tool.migrate(db, Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE))
                        .isEqualTo(VERSIONS);
                assertThat(tool.migrate(db, Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE))
                        .isZero();
                try (JpaLockStore store = validating(factory, Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE)) {
                    assertThat(store.acquire(Acquisition.of("held", JpaTestOwners.owner(), 60_000))
                                    .isAcquired())
                            .isFalse();
                    assertThat(store.acquire(Acquisition.of("other", owner, 60_000))
                                    .fencingToken())
                            .isGreaterThan(before);
                }
            } finally {
                factory.close();
            }
        }
    }

    /**
     * An installation migrated by an earlier release (V1 only: no table of shared leases), with a lock held: the
     * store refuses it, naming the script that adds the table; the tool's next run runs just that script, the
     * held lock stays held, and shared leases work.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("toolsOnEveryDatabase")
    void upgradingAVersion1SchemaAddsSharedLeasesAndKeepsLocks(JpaDatabase database, MigrationTool tool) {
        try (FreshDatabase db = FreshDatabase.create(database, "upg")) {
            assertThat(tool.migrate(db, CUSTOM_TABLE, CUSTOM_SEQUENCE, 1))
                    .as("V1")
                    .isEqualTo(1);
            String holder = JpaTestOwners.owner();
            db.execute("INSERT INTO " + CUSTOM_TABLE + " (lock_key, owner, token, expires_at) VALUES ('held', '"
                    + holder + "', 7, " + (database == JpaDatabase.MARIADB ? "TIMESTAMP" : "TIMESTAMP WITH TIME ZONE")
                    + " '2999-01-01 00:00:00" + (database == JpaDatabase.MARIADB ? "" : "+00") + "')");
            EntityManagerFactory factory = factory(db);
            try {
                try (JpaLockStore store = validating(factory, CUSTOM_TABLE, CUSTOM_SEQUENCE)) {
                    assertThatThrownBy(() -> store.acquire(Acquisition.of("other", JpaTestOwners.owner(), 1_000)))
                            .isInstanceOf(dev.baton.LockConfigurationException.class)
                            .hasMessageContaining(CUSTOM_TABLE + "_shared does not exist")
                            .hasMessageContaining(
                                    tool == MigrationTool.FLYWAY ? "V2__baton_shared_leases.sql" : "baton-locks-2-");
                }
                assertThat(tool.migrate(db, CUSTOM_TABLE, CUSTOM_SEQUENCE))
                        .as("the upgrade")
                        .isEqualTo(1);
                try (JpaLockStore store = validating(factory, CUSTOM_TABLE, CUSTOM_SEQUENCE)) {
                    assertThat(store.acquire(new Acquisition("held", JpaTestOwners.owner(), 1_000, 0, null, 2))
                                    .isAcquired())
                            .as("a shared lease of the key held before the upgrade")
                            .isFalse();
                    String reader = JpaTestOwners.owner();
                    AcquireResult shared = store.acquire(new Acquisition("read", reader, 60_000, 0, null, 2));
                    assertThat(shared.fencingToken()).isPositive();
                    assertThat(store.release("held", holder)).isTrue();
                    assertThat(store.release("read", reader)).isTrue();
                }
            } finally {
                factory.close();
            }
        }
    }

    static Stream<Arguments> switches() {
        return toolsOnEveryDatabase().filter(arguments -> arguments.get()[0] != JpaDatabase.H2);
    }

    @AfterAll
    static void dropMigrated() {
        MIGRATED.values().forEach(Migrated::close);
        MIGRATED.clear();
    }

    // The TCK on migrated schemas: both tools on both servers, default and custom names.

    @Nested
    class PostgresqlFlyway extends MigratedContract {
        PostgresqlFlyway() {
            super(JpaDatabase.POSTGRESQL, MigrationTool.FLYWAY, CUSTOM_TABLE, CUSTOM_SEQUENCE);
        }
    }

    @Nested
    class PostgresqlLiquibase extends MigratedContract {
        PostgresqlLiquibase() {
            super(JpaDatabase.POSTGRESQL, MigrationTool.LIQUIBASE, Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE);
        }
    }

    @Nested
    class MariadbFlyway extends MigratedContract {
        MariadbFlyway() {
            super(JpaDatabase.MARIADB, MigrationTool.FLYWAY, Dialect.DEFAULT_TABLE, Dialect.DEFAULT_SEQUENCE);
        }
    }

    @Nested
    class MariadbLiquibase extends MigratedContract {
        MariadbLiquibase() {
            super(JpaDatabase.MARIADB, MigrationTool.LIQUIBASE, CUSTOM_TABLE, CUSTOM_SEQUENCE);
        }
    }

    /** The TCK's store contract on a database migrated once by a tool; every store validates only. */
    @Tag("contract")
    abstract static class MigratedContract extends LockStoreContract {

        private final Migrated migrated;

        MigratedContract(JpaDatabase database, MigrationTool tool, String table, String sequence) {
            this.migrated =
                    MIGRATED.computeIfAbsent(database + "|" + tool, k -> new Migrated(database, tool, table, sequence));
        }

        @Override
        protected LockStore createStore() {
            return validating(migrated.factory, migrated.table, migrated.sequence);
        }
    }

    /** A database migrated by a tool, and the provider's factory on it. */
    private static final class Migrated implements AutoCloseable {

        final FreshDatabase db;
        final EntityManagerFactory factory;
        final String table;
        final String sequence;

        Migrated(JpaDatabase database, MigrationTool tool, String table, String sequence) {
            this.db = FreshDatabase.create(database, "tck");
            this.table = table;
            this.sequence = sequence;
            assertThat(tool.migrate(db, table, sequence)).isEqualTo(VERSIONS);
            this.factory = factory(db);
        }

        @Override
        public void close() {
            factory.close();
            db.close();
        }
    }

    private static EntityManagerFactory factory(FreshDatabase db) {
        return new Backend(db.database(), Provider.HIBERNATE).newFactory(TestDatabases.lockStoreUrl(db.url()));
    }

    private static JpaLockStore validating(EntityManagerFactory factory, String table, String sequence) {
        return JpaLockStore.builder(factory)
                .table(table)
                .sequence(sequence)
                .schemaAction(SchemaAction.VALIDATE)
                .build();
    }

    private static long count(FreshDatabase db, String sql) {
        try (Connection c = db.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The statements of a script as the store runs them: comment and blank lines dropped, one per ';'. */
    private static String withoutComments(String script) {
        return script.lines()
                .filter(line -> !line.isBlank() && !line.strip().startsWith("--"))
                .collect(Collectors.joining("\n"));
    }

    private static String resource(String path) {
        try (InputStream in = MigrationTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as("resource " + path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
