package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Turn;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link LockRecord} reads the default table (H2: the only database where the tests own the default name). */
class LockRecordTest {

    @ParameterizedTest
    @EnumSource(Provider.class)
    void readsWhatTheStoreWrote(Provider provider) {
        EntityManagerFactory emf = Persistence.createEntityManagerFactory(
                "baton-records-" + provider.name().toLowerCase(java.util.Locale.ROOT),
                Map.of(
                        "jakarta.persistence.jdbc.url",
                        TestDatabases.url(JpaDatabase.H2),
                        "jakarta.persistence.jdbc.driver",
                        "org.h2.Driver"));
        try (JpaLockStore store =
                JpaLockStore.builder(emf).schemaAction(SchemaAction.CREATE).build()) {
            String key = "record:" + UUID.randomUUID();
            String owner = JpaTestOwners.owner();
            long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
            EntityManager em = emf.createEntityManager();
            try {
                LockRecord record = em.find(LockRecord.class, key);
                assertThat(record.getKey()).isEqualTo(key);
                assertThat(record.getOwner()).isEqualTo(owner);
                assertThat(record.getFencingToken()).isEqualTo(token);
                assertThat(record.getExpiresAt()).isAfter(OffsetDateTime.now().plusSeconds(30));
                assertThat(em.createQuery("SELECT COUNT(r) FROM BatonLock r WHERE r.key = :k", Long.class)
                                .setParameter("k", key)
                                .getSingleResult())
                        .isEqualTo(1L);
                assertThat(record.getTurnWaiter()).isNull();
                assertThat(record.getTurnUntil()).isNull();
            } finally {
                em.close();
            }
            assertThat(store.acquire(new Acquisition(
                                    key, JpaTestOwners.owner(), 60_000, 1_000, new Turn("waiter-1", 5_000, 60_000)))
                            .isNextInTurn())
                    .isTrue();
            em = emf.createEntityManager();
            try {
                LockRecord record = em.find(LockRecord.class, key);
                em.refresh(record); // EclipseLink's shared cache still has the row as first read
                assertThat(record.getTurnWaiter()).isEqualTo("waiter-1");
                assertThat(record.getTurnSince()).isBefore(record.getTurnUntil());
                assertThat(record.getTurnUntil()).isAfter(OffsetDateTime.now().plusSeconds(30));
            } finally {
                em.close();
            }
        } finally {
            emf.close();
        }
    }
}
