package dev.baton.jpa;

import static dev.baton.jpa.testing.JdbcProxies.proxy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * What keeps the store fast on H2: H2 turns a statement timeout into a session {@code SET}, after which it compiles
 * every prepared statement of the database again (that was most of the store's time on H2), and it keeps a
 * statement prepared only for the same text. Through H2's own data source, watched: many rounds of acquire, renew
 * and release with one bound set no statement timeout and write few distinct statements.
 */
class H2PreparedStatementsTest {

    private static final int ROUNDS = 200;

    private static final Pattern ROW_LOCK_WAIT = Pattern.compile("WAIT [0-9]+\\.[0-9]+");

    @Test
    void storeCallsSetNoStatementTimeoutAndRepeatTheirStatements() {
        List<String> timeouts = new CopyOnWriteArrayList<>();
        List<String> statements = new CopyOnWriteArrayList<>();
        String table = "bt_h2prep_" + TestDatabases.runSuffix();
        TestDatabases.created(JpaDatabase.H2, table);
        try (JpaLockStore store = JpaLockStore.builder(watched(statements, timeouts))
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(SchemaAction.CREATE)
                .build()) {
            statements.clear();
            for (int round = 0; round < ROUNDS; round++) {
                String key = "prep:" + (round % 4);
                String owner = JpaTestOwners.owner();
                var acquired = store.acquire(Acquisition.of(key, owner, 60_000, 30_000));
                assertThat(acquired.isAcquired())
                        .as("round %d: %s", round, acquired)
                        .isTrue();
                assertThat(store.renew(Renewal.of(key, owner, 60_000)))
                        .as("round %d renewed", round)
                        .isTrue();
                assertThat(store.release(key, owner))
                        .as("round %d released", round)
                        .isTrue();
            }
        }
        assertThat(timeouts).as("statement timeouts set on H2").isEmpty();
        // one text per kind of statement, but for the row lock's wait: the call's time left, cut to 3 digits
        Set<String> kinds = statements.stream()
                .map(statement -> ROW_LOCK_WAIT.matcher(statement).replaceAll("WAIT ?"))
                .collect(Collectors.toSet());
        assertThat(kinds)
                .as("kinds of statements of %d rounds: %s", ROUNDS, kinds)
                .hasSizeLessThanOrEqualTo(10);
        // the time left changes from call to call (the data source lends connections after 1 to 9 ms, as a busy
        // pool); cut, the calls of one bound write one or two texts, where uncut they would write one per millisecond
        List<String> rowLocks = statements.stream()
                .filter(statement -> ROW_LOCK_WAIT.matcher(statement).find())
                .toList();
        assertThat(rowLocks).as("row locks taken with a wait").hasSizeGreaterThanOrEqualTo(ROUNDS);
        assertThat(Set.copyOf(rowLocks))
                .as("distinct texts of %d row locks: %s", rowLocks.size(), Set.copyOf(rowLocks))
                .hasSizeLessThanOrEqualTo(rowLocks.size() / 50);
    }

    private static DataSource watched(List<String> statements, List<String> timeouts) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL(TestDatabases.url(JpaDatabase.H2));
        return proxy(
                DataSource.class,
                h2,
                (method, args, result) -> method.getName().equals("getConnection")
                        ? slowly(proxy(Connection.class, (Connection) result, (m, a, r) -> {
                            if (m.getName().equals("prepareStatement")) {
                                statements.add((String) a[0]);
                                return proxy(PreparedStatement.class, (PreparedStatement) r, (sm, sa, sr) -> {
                                    if (sm.getName().equals("setQueryTimeout")) {
                                        timeouts.add(a[0] + " <- " + sa[0] + " s");
                                    }
                                    return sr;
                                });
                            }
                            return r;
                        }))
                        : result);
    }

    /** @return {@code connection}, after a pause of 1 to 9 ms */
    private static Connection slowly(Connection connection) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(1, 10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return connection;
    }
}
