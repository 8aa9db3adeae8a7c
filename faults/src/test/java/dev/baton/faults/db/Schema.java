package dev.baton.faults.db;

import static dev.baton.faults.history.Vocabulary.COUNTER_ROW;
import static dev.baton.faults.history.Vocabulary.FENCED_ROW;
import static dev.baton.faults.history.Vocabulary.LOCK_ROW;

import dev.baton.faults.history.Event;
import dev.baton.faults.store.StoreKind;
import dev.baton.jpa.JpaDatabase;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The run's schema: the store's own DDL (as shipped in the jar), the application's tables — {@code fenced}
 * (written only through the fence) and {@code counter} (read-modify-write without a fence) — and
 * triggers that journal, in the database's own order, every token change of the lock table and every
 * accepted write of both tables. The fenced write's trigger also records the lock row's token at the
 * moment of the write.
 */
public final class Schema {

    private Schema() {}

    /**
     * Creates everything and a row per key in each application table.
     *
     * @param db the database
     * @param keys the keys
     * @param store the store under test: with the JPA store, its DDL and a journal of its lock table; with
     *     {@code FencedWrites}, the journal of the fenced table records the lock row's token at each write
     */
    public static void create(Database db, Collection<String> keys, StoreKind store) {
        List<String> statements = new ArrayList<>();
        if (store.locksInDatabase()) {
            statements.addAll(storeDdl(db.kind()));
        }
        boolean postgres = db.kind() == JpaDatabase.POSTGRESQL;
        statements.addAll(postgres ? Postgresql.TABLES : MariaDbSql.TABLES);
        if (store.locksInDatabase()) {
            statements.addAll(postgres ? Postgresql.LOCK_JOURNAL : MariaDbSql.LOCK_JOURNAL);
        }
        if (store.fencedWrites()) {
            statements.addAll(postgres ? Postgresql.FENCED_JOURNAL : MariaDbSql.FENCED_JOURNAL);
        } else {
            statements.addAll(postgres ? Postgresql.TOKEN_COLUMN_JOURNAL : MariaDbSql.TOKEN_COLUMN_JOURNAL);
        }
        for (String key : keys) {
            statements.add("INSERT INTO fenced (k) VALUES ('" + key + "')");
            statements.add("INSERT INTO counter (k) VALUES ('" + key + "')");
        }
        try (Connection c = db.connect();
                Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the schema on " + db.title() + ": " + e, e);
        }
    }

    private static List<String> storeDdl(JpaDatabase kind) {
        String path = "META-INF/baton/sql/" + kind.name().toLowerCase(java.util.Locale.ROOT) + "/create.sql";
        try (InputStream in = Schema.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the class path (baton-jpa-store)");
            }
            StringBuilder sql = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.strip().startsWith("--")) {
                    sql.append(line).append('\n');
                }
            }
            return java.util.Arrays.stream(sql.toString().split(";"))
                    .map(String::strip)
                    .filter(s -> !s.isEmpty())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** PostgreSQL. */
    private static final class Postgresql {

        /** The application's tables and the journal, with the counter's trigger. */
        static final List<String> TABLES = List.of(
                "CREATE TABLE fenced (k VARCHAR(100) PRIMARY KEY, n BIGINT NOT NULL DEFAULT 0,"
                        + " last_token BIGINT NOT NULL DEFAULT 0, writer_pid BIGINT NOT NULL DEFAULT 0)",
                "CREATE TABLE counter (k VARCHAR(100) PRIMARY KEY, v BIGINT NOT NULL DEFAULT 0,"
                        + " writer_pid BIGINT NOT NULL DEFAULT 0, writer_token BIGINT NOT NULL DEFAULT 0)",
                "CREATE TABLE journal (id BIGSERIAL PRIMARY KEY, kind VARCHAR(10) NOT NULL, k VARCHAR(500) NOT NULL,"
                        + " a BIGINT, b BIGINT, pid BIGINT, tok BIGINT, cur BIGINT, live BOOLEAN, owner VARCHAR(64),"
                        + " at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp())",
                """
                CREATE FUNCTION journal_counter() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                  INSERT INTO journal (kind, k, a, b, pid, tok)
                    VALUES ('counter', NEW.k, OLD.v, NEW.v, NEW.writer_pid, NEW.writer_token);
                  RETURN NULL;
                END $$""",
                "CREATE TRIGGER counter_journal AFTER UPDATE ON counter FOR EACH ROW EXECUTE FUNCTION journal_counter()");

        /** Every token change of the lock table. */
        static final List<String> LOCK_JOURNAL = List.of(
                """
                CREATE FUNCTION journal_lock() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                  IF TG_OP = 'INSERT' OR NEW.token <> OLD.token THEN
                    INSERT INTO journal (kind, k, tok, owner) VALUES ('lock', NEW.lock_key, NEW.token, NEW.owner);
                  END IF;
                  RETURN NULL;
                END $$""",
                "CREATE TRIGGER baton_locks_journal AFTER INSERT OR UPDATE ON baton_locks FOR EACH ROW"
                        + " EXECUTE FUNCTION journal_lock()");

        /** Every accepted fenced write, with the lock row's token and liveness at that moment. */
        static final List<String> FENCED_JOURNAL = List.of(
                // a plain read (a fresh READ COMMITTED snapshot), so the journal does not change what it observes
                """
                CREATE FUNCTION journal_fenced() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE current_token BIGINT; is_live BOOLEAN;
                BEGIN
                  SELECT token, expires_at > clock_timestamp() INTO current_token, is_live
                    FROM baton_locks WHERE lock_key = NEW.k;
                  INSERT INTO journal (kind, k, a, b, pid, cur, live)
                    VALUES ('fenced', NEW.k, OLD.last_token, NEW.last_token, NEW.writer_pid, current_token, is_live);
                  RETURN NULL;
                END $$""",
                "CREATE TRIGGER fenced_journal AFTER UPDATE ON fenced FOR EACH ROW EXECUTE FUNCTION journal_fenced()");

        /** Every accepted token-column write (no lock row to read). */
        static final List<String> TOKEN_COLUMN_JOURNAL = List.of(
                // with a token column instead of FencedWrites there is no lock row to read
                """
                CREATE FUNCTION journal_fenced() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                  INSERT INTO journal (kind, k, a, b, pid) VALUES ('fenced', NEW.k, OLD.last_token, NEW.last_token, NEW.writer_pid);
                  RETURN NULL;
                END $$""",
                "CREATE TRIGGER fenced_journal AFTER UPDATE ON fenced FOR EACH ROW EXECUTE FUNCTION journal_fenced()");

        private Postgresql() {}
    }

    /** MariaDB. */
    private static final class MariaDbSql {

        /** The application's tables and the journal, with the counter's trigger. */
        static final List<String> TABLES = List.of(
                "CREATE TABLE fenced (k VARCHAR(100) PRIMARY KEY, n BIGINT NOT NULL DEFAULT 0,"
                        + " last_token BIGINT NOT NULL DEFAULT 0, writer_pid BIGINT NOT NULL DEFAULT 0) ENGINE = InnoDB",
                "CREATE TABLE counter (k VARCHAR(100) PRIMARY KEY, v BIGINT NOT NULL DEFAULT 0,"
                        + " writer_pid BIGINT NOT NULL DEFAULT 0, writer_token BIGINT NOT NULL DEFAULT 0) ENGINE = InnoDB",
                "CREATE TABLE journal (id BIGINT AUTO_INCREMENT PRIMARY KEY, kind VARCHAR(10) NOT NULL,"
                        + " k VARCHAR(500) NOT NULL, a BIGINT, b BIGINT, pid BIGINT, tok BIGINT, cur BIGINT, live BOOLEAN,"
                        + " owner VARCHAR(64), at DATETIME(6) NOT NULL) ENGINE = InnoDB",
                "CREATE TRIGGER counter_journal AFTER UPDATE ON counter FOR EACH ROW"
                        + " INSERT INTO journal (kind, k, a, b, pid, tok, at)"
                        + " VALUES ('counter', NEW.k, OLD.v, NEW.v, NEW.writer_pid, NEW.writer_token, SYSDATE(6))");

        /** Every token change of the lock table. */
        static final List<String> LOCK_JOURNAL = List.of(
                "CREATE TRIGGER baton_locks_journal_insert AFTER INSERT ON baton_locks FOR EACH ROW"
                        + " INSERT INTO journal (kind, k, tok, owner, at) VALUES ('lock', NEW.lock_key, NEW.token, NEW.owner, SYSDATE(6))",
                "CREATE TRIGGER baton_locks_journal_update AFTER UPDATE ON baton_locks FOR EACH ROW BEGIN"
                        + " IF NEW.token <> OLD.token THEN"
                        + " INSERT INTO journal (kind, k, tok, owner, at) VALUES ('lock', NEW.lock_key, NEW.token, NEW.owner, SYSDATE(6));"
                        + " END IF; END");

        /** Every accepted fenced write, with the lock row's token and liveness at that moment. */
        static final List<String> FENCED_JOURNAL = List.of(
                // a plain (consistent, non-locking) read, so the journal does not change what it observes;
                // expires_at is UTC
                "CREATE TRIGGER fenced_journal AFTER UPDATE ON fenced FOR EACH ROW BEGIN"
                        + " DECLARE current_token BIGINT; DECLARE is_live BOOLEAN;"
                        + " SELECT token, expires_at > UTC_TIMESTAMP(6) INTO current_token, is_live FROM baton_locks WHERE lock_key = NEW.k;"
                        + " INSERT INTO journal (kind, k, a, b, pid, cur, live, at)"
                        + " VALUES ('fenced', NEW.k, OLD.last_token, NEW.last_token, NEW.writer_pid, current_token, is_live, SYSDATE(6));"
                        + " END");

        /** Every accepted token-column write (no lock row to read). */
        static final List<String> TOKEN_COLUMN_JOURNAL = List.of(
                // with a token column instead of FencedWrites there is no lock row to read
                "CREATE TRIGGER fenced_journal AFTER UPDATE ON fenced FOR EACH ROW"
                        + " INSERT INTO journal (kind, k, a, b, pid, at)"
                        + " VALUES ('fenced', NEW.k, OLD.last_token, NEW.last_token, NEW.writer_pid, SYSDATE(6))");

        private MariaDbSql() {}
    }

    /** An accepted protected write; {@code cur} and {@code live} only when the lock row was read. */
    private static Event fencedRow(ResultSet rs, long id, String key, String at) throws SQLException {
        List<Object> fields = new ArrayList<>(
                List.of("key", key, "old", rs.getLong(4), "new", rs.getLong(5), "pid", rs.getLong(6), "at", at));
        if (rs.getObject(8) != null) {
            fields.addAll(List.of("cur", rs.getLong(8), "live", rs.getBoolean(9)));
        }
        return Event.of(FENCED_ROW, id, fields.toArray());
    }

    /**
     * Reads the journal, in the database's order, as events (the event's time is the journal row's id).
     *
     * @param db the database
     * @return the rows
     */
    public static List<Event> journal(Database db) {
        List<Event> rows = new ArrayList<>();
        try (Connection c = db.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT id, kind, k, a, b, pid, tok, cur, live, owner, at FROM journal ORDER BY id")) {
            while (rs.next()) {
                long id = rs.getLong(1);
                String key = rs.getString(3);
                String at = String.valueOf(rs.getObject(11));
                rows.add(
                        switch (rs.getString(2)) {
                            case "lock" ->
                                Event.of(
                                        LOCK_ROW,
                                        id,
                                        "key",
                                        key,
                                        "tok",
                                        rs.getLong(7),
                                        "owner",
                                        rs.getString(10),
                                        "at",
                                        at);
                            case "fenced" -> fencedRow(rs, id, key, at);
                            default ->
                                Event.of(
                                        COUNTER_ROW,
                                        id,
                                        "key",
                                        key,
                                        "old",
                                        rs.getLong(4),
                                        "new",
                                        rs.getLong(5),
                                        "pid",
                                        rs.getLong(6),
                                        "tok",
                                        rs.getLong(7),
                                        "at",
                                        at);
                        });
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the journal on " + db.title() + ": " + e, e);
        }
        return rows;
    }
}
