package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.StoreConfig;
import dev.baton.jpa.testing.TestDatabases;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end in Weld SE: {@code baton.store=jpa} from MicroProfile Config, the application's
 * {@link EntityManagerFactory} bean, and the runtime's {@link Locks} on top.
 */
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class})
@AddBeanClasses(CdiWiringTest.Factories.class)
class CdiWiringTest {

    static final Backend BACKEND = new Backend(JpaDatabase.H2, Provider.HIBERNATE);
    static final String TABLE = BACKEND.tableName("cdi");

    /** The application's factory, as a producer. */
    static class Factories {
        @Produces
        EntityManagerFactory factory() {
            return BACKEND.sharedFactory();
        }
    }

    @Inject
    Locks locks;

    @BeforeAll
    static void configure() {
        StoreConfig.register(TABLE);
    }

    @AfterAll
    static void unconfigure() {
        StoreConfig.release();
    }

    @Test
    void locksComeFromTheTable() throws SQLException {
        locksComeFrom(locks, TABLE);
    }

    /** Locks from {@code locks} are rows of {@code table} (on H2) and exclude each other across threads. */
    static void locksComeFrom(Locks locks, String table) throws SQLException {
        String key = "cdi:" + UUID.randomUUID();
        excludeEachOther(locks, key, lock -> assertThat(rowToken(table, key)).isEqualTo(lock.fencingToken()));
    }

    /** A check of a lock while it is held. */
    @FunctionalInterface
    interface WhileHeld {
        void check(Lock lock) throws SQLException;
    }

    /**
     * {@code key} from {@code locks} is held by one thread at a time, with a greater token the next time.
     *
     * @param whileHeld what else to check while the first lock is held
     */
    static void excludeEachOther(Locks locks, String key, WhileHeld whileHeld) throws SQLException {
        long token;
        try (Lock lock = locks.acquire(key)) {
            token = lock.fencingToken();
            assertThat(lock.isHeld()).isTrue();
            whileHeld.check(lock);
            assertThat(CompletableFuture.supplyAsync(() -> locks.tryAcquire(key))
                            .join())
                    .as("another thread does not get it")
                    .isEmpty();
        }
        try (Lock again = locks.tryAcquire(key).orElseThrow()) {
            assertThat(again.fencingToken()).isGreaterThan(token);
        }
    }

    private static long rowToken(String table, String key) throws SQLException {
        try (Connection c = TestDatabases.connect(JpaDatabase.H2);
                PreparedStatement ps = c.prepareStatement("SELECT token FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }
}
