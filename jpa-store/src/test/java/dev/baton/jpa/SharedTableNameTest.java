package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.jpa.internal.SchemaScript;
import java.util.List;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/**
 * Table mode names the table of shared leases after the lock table ({@code <table>_shared}), in its schema; a lock
 * table name too long for that is refused when the store is built, naming the limit, and the DDL carries the name.
 */
class SharedTableNameTest {

    private static final DataSource NOT_CONNECTED = new JdbcDataSource(); // building connects to nothing

    @Test
    void theTableOfSharedLeasesIsNamedAfterTheLockTable() {
        assertThat(SchemaScript.sharedTableOf("baton_locks")).isEqualTo("baton_locks_shared");
        assertThat(SchemaScript.sharedTableOf("app.locks")).isEqualTo("app.locks_shared");
        for (JpaDatabase database : JpaDatabase.values()) {
            List<String> ddl = SchemaScript.statements(database, "app.locks", "app.tokens");
            assertThat(ddl)
                    .as("%s", database)
                    .anyMatch(sql -> sql.startsWith("CREATE TABLE IF NOT EXISTS app.locks_shared ("))
                    .anyMatch(sql -> sql.startsWith("CREATE TABLE IF NOT EXISTS app.locks ("))
                    .noneMatch(sql -> sql.contains("baton_locks"));
        }
    }

    @Test
    void aLockTableNameWithoutRoomForTheSuffixIsRefusedInTableModeOnly() {
        String longest = "t".repeat(56);
        String tooLong = "t".repeat(57);
        JpaLockStore.builder(NOT_CONNECTED).table("app." + longest).build().close();
        assertThatThrownBy(() -> JpaLockStore.builder(NOT_CONNECTED)
                        .table("app." + tooLong)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(tooLong + "_shared")
                .hasMessageContaining("at most 56 characters");
        JpaLockStore.builder(NOT_CONNECTED)
                .table(tooLong)
                .mode(LockMode.ADVISORY)
                .build()
                .close();
    }
}
