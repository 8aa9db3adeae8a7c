package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.jpa.testing.Backend;
import dev.baton.spi.Acquisition;
import dev.baton.tck.Together;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code schema-action}: create is idempotent and safe when instances start at once; validate checks. */
public abstract class SchemaSuite {

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Test
    void createRacesAreHarmlessAndValidateChecks() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("schema");
        JpaLockStore.Builder validating = JpaLockStore.builder(backend.sharedFactory())
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(SchemaAction.VALIDATE);
        try (JpaLockStore store = validating.build()) {
            assertThatThrownBy(() -> store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000)))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("validate");
        }

        List<JpaLockStore> stores = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            stores.add(backend.store(table));
        }
        try {
            Together.run(
                    stores.size(),
                    i -> stores.get(i)
                            .acquire(Acquisition.of("schema:" + UUID.randomUUID(), JpaTestOwners.owner(), 1000)));
        } finally {
            stores.forEach(JpaLockStore::close);
        }

        try (JpaLockStore store = validating.build()) {
            assertThat(store.acquire(Acquisition.of("k", JpaTestOwners.owner(), 1000))
                            .isAcquired())
                    .isTrue();
        }
    }
}
