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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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

    @Test
    void storeCallsSetNoStatementTimeoutAndRepeatTheirStatements() {
        List<String> timeouts = new CopyOnWriteArrayList<>();
        Set<String> statements = ConcurrentHashMap.newKeySet();
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
        // per kind of statement one text, two where a call's time left crossed a cut of its row lock's wait
        assertThat(statements)
                .as("distinct statements of %d rounds: %s", ROUNDS, statements)
                .hasSizeLessThanOrEqualTo(12);
    }

    private static DataSource watched(Set<String> statements, List<String> timeouts) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL(TestDatabases.url(JpaDatabase.H2));
        return proxy(
                DataSource.class,
                h2,
                (method, args, result) -> method.getName().equals("getConnection")
                        ? proxy(Connection.class, (Connection) result, (m, a, r) -> {
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
                        })
                        : result);
    }
}
