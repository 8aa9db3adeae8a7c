package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockStoreException;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TcpProxy;
import jakarta.persistence.EntityManagerFactory;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The database goes away (a proxy on 127.0.0.1 cuts every connection and refuses new ones) and comes
 * back on the same address: operations fail with {@link LockStoreException} carrying the cause, nothing
 * is half-done, and the same store works again without a restart.
 */
public abstract class OutageSuite {

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @Test
    void storeFailsCleanlyWhileTheDatabaseIsDownAndRecoversByItself() throws Exception {
        Backend backend = backend();
        String table = backend.tableName("outage");
        try (TcpProxy proxy = TcpProxy.forJdbcUrl(backend.url())) {
            proxy.start();
            EntityManagerFactory factory = backend.newFactory(proxy.rewrite(backend.url()));
            try (JpaLockStore store = backend.store(factory, table)) {
                String held = "outage-held:" + UUID.randomUUID();
                String holder = JpaTestOwners.owner();
                long token = store.acquire(held, holder, 120_000).fencingToken();

                proxy.stop();
                String key = "outage:" + UUID.randomUUID();
                String failedOwner = JpaTestOwners.owner();
                assertThatThrownBy(() -> store.acquire(key, failedOwner, 120_000))
                        .isInstanceOf(LockStoreException.class)
                        .hasMessageContaining("acquire")
                        .satisfies(e -> assertThat(e.getCause()).isNotNull());
                assertThatThrownBy(() -> store.renew(held, holder, 120_000)).isInstanceOf(LockStoreException.class);
                assertThatThrownBy(() -> store.acquire(key, failedOwner, 120_000))
                        .isInstanceOf(LockStoreException.class)
                        .satisfies(e -> assertThat(hasCause(e, SQLException.class)).isTrue());

                proxy.start();
                String recoveredOwner = JpaTestOwners.owner();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptionsInstanceOf(
                        LockStoreException.class).until(() -> store.acquire(key, recoveredOwner, 120_000).isAcquired());
                assertThat(store.renew(held, holder, 120_000)).as("the lock taken before the outage").isTrue();
                assertThat(store.acquire(held, JpaTestOwners.owner(), 1000).isAcquired()).isFalse();
                assertThat(store.release(key, failedOwner)).as("the failed acquisition left nothing").isFalse();
                assertThat(store.release(key, recoveredOwner)).isTrue();
                assertThat(store.release(held, holder)).isTrue();
                assertThat(store.acquire(held, JpaTestOwners.owner(), 1000).fencingToken()).isGreaterThan(token);
            } finally {
                factory.close();
            }
        }
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
