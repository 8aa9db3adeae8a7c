package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/** SPEC §7: a holder whose token was overtaken cannot write. */
public abstract class FencedWritesSuite {

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Test
    void staleHolderCannotWriteThroughTheHelper() {
        Backend backend = backend();
        String table = backend.tableName("fence");
        String data = table + "_data";
        backend.execute("CREATE TABLE IF NOT EXISTS " + data + " (id INT PRIMARY KEY, val VARCHAR(50), fence BIGINT NOT NULL)");
        int id = Math.abs(UUID.randomUUID().hashCode() % 1_000_000);
        backend.execute("INSERT INTO " + data + " (id, val, fence) VALUES (" + id + ", 'init', 0)");
        try (JpaLockStore store = backend.store(table)) {
            FencedWrites fenced = store.fencedWrites();
            String key = "fence:" + UUID.randomUUID();
            String staleOwner = JpaTestOwners.owner();
            long stale = store.acquire(key, staleOwner, 60_000).fencingToken();
            String update = "UPDATE " + data + " SET val = ?1 WHERE id = ?2 AND {fence}";

            assertThat(inTransaction(em -> fenced.executeUpdate(em, key, stale, update, "first", id))).isEqualTo(1);
            // The holder stalls past its lease: its last renewal ran with a 1 ms ttl.
            assertThat(store.renew(key, staleOwner, 1)).isTrue();

            AcquireResult next = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> store.acquire(key, JpaTestOwners.owner(), 60_000), AcquireResult::isAcquired);
            long current = next.fencingToken();
            assertThat(current).isGreaterThan(stale);

            assertThat(inTransaction(em -> fenced.executeUpdate(em, key, stale, update, "stale", id)))
                    .as("the overtaken holder writes nothing").isZero();
            assertThat(inTransaction(em -> fenced.executeUpdate(em, key, current, update, "current", id))).isEqualTo(1);
            assertThat(value(data, id)).isEqualTo("current");

            // The fence column pattern on the application's own rows.
            String fenceColumn = "UPDATE " + data + " SET val = ?1, fence = ?2 WHERE id = ?3 AND fence < ?2";
            assertThat(inTransaction(em -> em.createNativeQuery(fenceColumn)
                    .setParameter(1, "by-current").setParameter(2, current).setParameter(3, id).executeUpdate()))
                    .isEqualTo(1);
            assertThat(inTransaction(em -> em.createNativeQuery(fenceColumn)
                    .setParameter(1, "by-stale").setParameter(2, stale).setParameter(3, id).executeUpdate()))
                    .isZero();
            assertThat(value(data, id)).isEqualTo("by-current");

            // The same helper, found from an entity manager of the application (as with baton.store=jpa).
            FencedWrites detected = inTransactionGet(em -> FencedWrites.forDatabaseOf(em, table));
            assertThat(detected.condition("?1", "?2")).isEqualTo(fenced.condition("?1", "?2"));
            assertThat(inTransaction(em -> detected.executeUpdate(em, key, stale, update, "stale again", id))).isZero();
            assertThat(inTransaction(em -> detected.executeUpdate(em, key, current, update, "detected", id))).isEqualTo(1);
            assertThat(value(data, id)).isEqualTo("detected");
            assertThatThrownBy(() -> inTransactionGet(em -> FencedWrites.forDatabaseOf(em, "bad table")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad table");

            assertThatThrownBy(() -> fenced.executeUpdate(null, key, current, "UPDATE x SET y = 1"))
                    .isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> inTransaction(em -> fenced.executeUpdate(em, key, current, "UPDATE x SET y = 1")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{fence}");
        }
    }

    private int inTransaction(ToIntFunction<EntityManager> work) {
        return inTransactionGet(work::applyAsInt);
    }

    private <T> T inTransactionGet(Function<EntityManager, T> work) {
        EntityManager em = backend().sharedFactory().createEntityManager();
        try {
            em.getTransaction().begin();
            T result = work.apply(em);
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    private String value(String data, int id) {
        try (Connection c = TestDatabases.connect(backend().database()); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT val FROM " + data + " WHERE id = " + id)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
