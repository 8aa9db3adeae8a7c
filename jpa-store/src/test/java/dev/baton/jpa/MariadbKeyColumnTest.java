package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.spi.Acquisition;
import org.junit.jupiter.api.Test;

/** MariaDB: a key column that would merge {@code a} and {@code a } (PAD SPACE) or {@code k} and {@code K} is refused. */
class MariadbKeyColumnTest {

    @Test
    void padSpaceOrCaseInsensitiveKeyColumnIsRefused() {
        Backend backend = new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE);
        for (String collation : new String[] {"utf8mb4_bin", "utf8mb4_general_ci"}) {
            String table = backend.tableName("pad" + collation.length());
            backend.execute(
                    "CREATE SEQUENCE IF NOT EXISTS " + table + "_seq",
                    "CREATE TABLE IF NOT EXISTS " + table + " (lock_key VARCHAR(500) CHARACTER SET utf8mb4 COLLATE "
                            + collation + " NOT NULL PRIMARY KEY, owner VARCHAR(64) NOT NULL, token BIGINT NOT NULL,"
                            + " expires_at DATETIME(6) NOT NULL)");
            try (JpaLockStore store = JpaLockStore.builder(backend.sharedFactory())
                    .table(table)
                    .sequence(table + "_seq")
                    .build()) {
                assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                        .isInstanceOf(LockConfigurationException.class)
                        .hasMessageContaining(collation)
                        .hasMessageContaining("utf8mb4_nopad_bin");
            }
        }
    }
}
