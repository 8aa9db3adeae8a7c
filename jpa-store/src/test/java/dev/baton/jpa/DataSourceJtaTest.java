package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.arjuna.ats.jta.cdi.TransactionExtension;
import dev.baton.jpa.internal.JpaLockStoreFactory;
import dev.baton.jpa.internal.jta.JtaExtension;
import dev.baton.jpa.internal.jta.NotSupportedSuspender;
import dev.baton.jpa.testing.JtaDataSource;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.jpa.testing.TestJndi;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Renewal;
import dev.baton.tck.Together;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionManager;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code baton.jpa.data-source} on a JTA data source, with a real transaction manager (Narayana) and its
 * {@code @Transactional} interceptors in Weld SE: the store's statements run with the caller's transaction
 * suspended, so they are committed on their own whatever the caller does. The data source (PostgreSQL) is
 * bound in a JNDI context of the test's own and enlists every connection taken inside a transaction, as a
 * server's does; on an enlisted connection the store could neither commit nor switch to auto-commit.
 */
@EnableAutoWeld
@AddExtensions({JtaExtension.class, TransactionExtension.class})
class DataSourceJtaTest {

    static final String NAME = "java:comp/env/jdbc/orders";
    static final String TABLE = "bt_dsjta_" + TestDatabases.runSuffix();

    static TransactionManager tm;
    static JtaDataSource dataSource;

    @Inject
    BeanManager beans;

    /** The bean the extension adds (looked up, not injected: weld-junit would add the class a second time). */
    NotSupportedSuspender suspender;

    JpaLockStore store;

    @BeforeAll
    static void bind() {
        tm = com.arjuna.ats.jta.TransactionManager.transactionManager();
        dataSource = new JtaDataSource(TestDatabases.url(JpaDatabase.POSTGRESQL), tm);
        TestDatabases.created(JpaDatabase.POSTGRESQL, TABLE);
        TestJndi.install();
        TestJndi.bind(NAME, dataSource);
        // where Narayana's interceptors look for them once a naming context exists, as on a server
        TestJndi.bind("java:/TransactionManager", tm);
        var registry = new com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple();
        TestJndi.bind("java:/TransactionSynchronizationRegistry", registry);
        TestJndi.bind("java:comp/TransactionSynchronizationRegistry", registry);
    }

    @AfterAll
    static void unbind() {
        TestJndi.uninstall();
        dataSource.close();
    }

    @BeforeEach
    void createStore() {
        suspender = beans.createInstance().select(NotSupportedSuspender.class).get();
        JpaLockStoreFactoryTest.Context context = new JpaLockStoreFactoryTest.Context()
                .with("data-source", NAME)
                .with("table", TABLE)
                .with("sequence", TABLE + "_seq")
                .with("schema-action", "create");
        context.beans.put(NotSupportedSuspender.class, suspender); // what the runtime finds in the container
        store = (JpaLockStore) new JpaLockStoreFactory().create(context);
    }

    @AfterEach
    void end() throws Exception {
        if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
            tm.rollback();
        }
        store.close();
    }

    @Test
    void aCallersRollbackDoesNotUndoAnAcquisition() throws Exception {
        String key = "ds-rollback:" + UUID.randomUUID();
        String owner = JpaTestOwners.owner();
        int enlisted = dataSource.enlistments();
        tm.begin();
        callerWorksOnTheDataSource();
        long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
        assertThat(store.renew(Renewal.of(key, owner, 60_000))).isTrue();
        tm.rollback();

        assertThat(dataSource.enlistments())
                .as("only the caller's own connection joined its transaction")
                .isEqualTo(enlisted + 1);
        assertThat(committedToken(key))
                .as("committed before the caller's rollback")
                .isEqualTo(token);
        assertThat(CompletableFuture.supplyAsync(
                                () -> store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000)))
                        .join()
                        .isAcquired())
                .as("still held after the caller's rollback")
                .isFalse();
        assertThat(store.inspect(key).map(Holder::owner)).contains(owner);
        assertThat(store.release(key, owner)).isTrue();
    }

    @Test
    void aCallersRollbackDoesNotUndoARelease() throws Exception {
        String key = "ds-release:" + UUID.randomUUID();
        String owner = JpaTestOwners.owner();
        long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
        int enlisted = dataSource.enlistments();
        tm.begin();
        callerWorksOnTheDataSource();
        assertThat(store.release(key, owner)).isTrue();
        String next = JpaTestOwners.owner();
        AcquireResult taken = CompletableFuture.supplyAsync(() -> store.acquire(Acquisition.of(key, next, 60_000)))
                .join();
        assertThat(taken.isAcquired())
                .as("another thread takes the key while the caller's transaction is open")
                .isTrue();
        assertThat(taken.fencingToken()).isGreaterThan(token);
        tm.rollback();

        assertThat(dataSource.enlistments())
                .as("only the caller's own connection joined its transaction")
                .isEqualTo(enlisted + 1);
        assertThat(store.release(key, owner)).as("the release was not undone").isFalse();
        assertThat(store.inspect(key).map(Holder::owner)).contains(next);
        assertThat(store.release(key, next)).isTrue();
    }

    @Test
    void aCallersCommitNeitherRepeatsNorUndoesTheStoresWork() throws Exception {
        String key = "ds-commit:" + UUID.randomUUID();
        String owner = JpaTestOwners.owner();
        tm.begin();
        callerWorksOnTheDataSource();
        long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
        assertThat(committedToken(key))
                .as("committed before the caller's commit")
                .isEqualTo(token);
        tm.commit();
        assertThat(store.inspect(key).map(Holder::owner)).contains(owner);

        tm.begin();
        callerWorksOnTheDataSource();
        assertThat(store.release(key, owner)).isTrue();
        tm.commit();
        assertThat(store.release(key, owner)).as("released once").isFalse();
        assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                        .fencingToken())
                .isGreaterThan(token);
    }

    @Test
    void aCallersLongTransactionDelaysNoOtherAcquisition() throws Exception {
        String key = "ds-open:" + UUID.randomUUID();
        String owner = JpaTestOwners.owner();
        tm.begin();
        tm.setTransactionTimeout(0);
        callerWorksOnTheDataSource();
        assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                .isTrue();
        // Had they joined the caller's transaction, both statements would keep the key's row locked until it ends.
        assertThat(store.release(key, owner)).isTrue();

        long started = System.nanoTime();
        boolean taken = CompletableFuture.supplyAsync(() -> {
                    String other = JpaTestOwners.owner();
                    boolean acquired = store.acquire(Acquisition.of(key, other, 60_000, 10_000))
                            .isAcquired();
                    store.release(key, other);
                    return acquired;
                })
                .get(30, TimeUnit.SECONDS);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(tm.getStatus()).as("the caller's transaction is still open").isEqualTo(Status.STATUS_ACTIVE);
        assertThat(taken).as("another thread takes the released key").isTrue();
        assertThat(tookMillis)
                .as("without waiting for the caller's transaction")
                .isLessThan(3_000);
        tm.commit();
    }

    @Test
    void exclusionHoldsForManyThreadsEachInItsOwnTransaction() throws Exception {
        String key = "ds-race:" + UUID.randomUUID();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        int threads = 8;
        int rounds = 25;
        Together.run(threads, t -> {
            for (int round = 0; round < rounds; round++) {
                String owner = JpaTestOwners.owner();
                tm.begin();
                try {
                    if (store.acquire(Acquisition.of(key, owner, 30_000, 5_000)).isAcquired()) {
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        entries.incrementAndGet();
                        Thread.onSpinWait();
                        inside.decrementAndGet();
                        assertThat(store.release(key, owner)).isTrue();
                    }
                } finally {
                    // half the callers roll back: it must not matter to the locks
                    if (round % 2 == 0) {
                        tm.rollback();
                    } else {
                        tm.commit();
                    }
                }
            }
        });
        assertThat(overlaps).hasValue(0);
        assertThat(entries.get()).isPositive();
        assertThat(store.inspect(key)).as("every holder released").isEmpty();
    }

    @Test
    void theSuspenderRunsTheWorkWithTheCallersTransactionSuspendedAndResumesIt() throws Exception {
        assertThat(beans.getBeans(NotSupportedSuspender.class)).hasSize(1);
        tm.begin();
        jakarta.transaction.Transaction caller = tm.getTransaction();
        assertThat(suspender.outsideTransaction(() -> {
                    try {
                        return tm.getTransaction();
                    } catch (jakarta.transaction.SystemException e) {
                        throw new IllegalStateException(e);
                    }
                }))
                .as("no transaction inside")
                .isNull();
        assertThat(tm.getTransaction()).as("the caller's, resumed").isSameAs(caller);
        tm.rollback();
    }

    /** The caller's own statement on the data source: its connection joins the caller's transaction. */
    private static void callerWorksOnTheDataSource() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement st = c.createStatement()) {
            st.execute("SELECT 1");
        }
    }

    private static long committedToken(String key) throws SQLException {
        try (Connection c = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                PreparedStatement ps = c.prepareStatement("SELECT token FROM " + TABLE + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }
}
