package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.jpa.testing.PlainDataSource;
import dev.baton.jpa.testing.Pools;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.LockStore;
import dev.baton.tck.LogCapture;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Release notifications through an application server's data source, on PostgreSQL: a pool that lends its
 * own wrappers of pgjdbc's connections and lends a connection again whatever state it comes back in. When
 * the wrapper does not unwrap to pgjdbc (the driver is the server's), notifications are off, said once, and
 * locks keep working on the same pool; and a caller that does not wait never waits for the listener.
 */
class ServerPoolNotificationTest {

    private static final String LISTENER_THREAD = "baton-jpa-release-listener";

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService calls = Executors.newCachedThreadPool();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private LogCapture log;

    @BeforeEach
    void capture() {
        log = LogCapture.start("dev.baton.jpa.internal.ReleaseListener");
    }

    @AfterEach
    void tearDown() throws Exception {
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            c.close();
        }
        scheduler.shutdownNow();
        calls.shutdownNow();
        log.close();
    }

    @Test
    void aPoolThatHidesPgjdbcKeepsLocksWorkingClosesNothingAndWarnsOnce() throws Exception {
        ServerPool pool = pool(new ServerPool(3, true, 0));
        JpaLockStore store = store(pool, table("nhide"));
        LockEngine holder = engine(store, 200);
        LockEngine waiter = engine(store, 200);
        String key = "hide:" + UUID.randomUUID();

        HeldLock held = holder.acquire(key, 30_000, 0, false);
        assertThat(held).isNotNull();
        CompletableFuture<HeldLock> waiting =
                CompletableFuture.supplyAsync(() -> waiter.acquire(key, 30_000, 20_000, true), calls);
        Thread.sleep(500); // the waiter was refused and subscribed
        held.close();
        HeldLock taken = waiting.get(10, TimeUnit.SECONDS);
        assertThat(taken).as("the waiter polled").isNotNull();
        taken.close();
        for (int i = 0; i < 20; i++) {
            HeldLock lock = (i % 2 == 0 ? holder : waiter).acquire(key, 30_000, 0, false);
            assertThat(lock).as("acquisition %s", i).isNotNull();
            lock.close();
        }
        Thread.sleep(1_000); // a listener that retried would have warned again by now

        assertThat(pool.lentClosed.get())
                .as("connections the pool lent again after they were closed underneath it")
                .isZero();
        assertThat(pool.physicalClosed())
                .as("pooled sessions ended underneath the pool")
                .isZero();
        assertThat(log.messages(Level.WARNING, "BATON-JPA-019"))
                .as("notifications off, said once")
                .hasSize(1)
                .allSatisfy(m -> assertThat(m).contains("org.postgresql.PGConnection"));
        assertThat(log.messages(Level.WARNING, "BATON-JPA-011"))
                .as("no retries")
                .isEmpty();
        assertThat(log.messages(Level.WARNING, "BATON-JPA-010")).isEmpty();
        assertThat(store.releaseListener().listening()).isFalse();
    }

    @Test
    void aTryDoesNotWaitForASlowListener() throws Exception {
        String table = table("nslow");
        JpaLockStore other = store(Pools.of(TestDatabases.url(JpaDatabase.POSTGRESQL), "org.postgresql.Driver"), table);
        ServerPool slow = pool(new ServerPool(3, false, 3_000)); // lends the listener its connection after 3 s
        JpaLockStore store = store(slow, table);
        LockEngine holder = engine(other, 200);
        LockEngine tries = engine(store, 200);
        String key = "slow:" + UUID.randomUUID();
        HeldLock held = holder.acquire(key, 30_000, 0, false);
        assertThat(held).isNotNull();

        long started = System.nanoTime();
        HeldLock refused = tries.acquireOrNull(key, 30_000, 0, false);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(refused).isNull();
        assertThat(tookMillis).as("ms a try took, the listener being slow").isLessThan(1_000);

        held.close();
        started = System.nanoTime();
        HeldLock taken = tries.acquireOrNull(key, 30_000, 0, false);
        tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertThat(taken).isNotNull();
        assertThat(tookMillis).as("ms a free try took").isLessThan(1_000);
        taken.close();
    }

    @Test
    void aReleaseWhileTheWaiterSubscribesIsNotMissed() throws Exception {
        String table = table("nsub");
        JpaLockStore other = store(Pools.of(TestDatabases.url(JpaDatabase.POSTGRESQL), "org.postgresql.Driver"), table);
        ServerPool slow = pool(new ServerPool(3, false, 1_500)); // the LISTEN is in place after 1.5 s
        JpaLockStore store = store(slow, table);
        LockEngine holder = engine(other, 200);
        LockEngine waiter = engine(store, 8_000); // a poll would come 8 s after the refusal
        String key = "sub:" + UUID.randomUUID();
        HeldLock held = holder.acquire(key, 30_000, 0, false);

        CompletableFuture<HeldLock> waiting =
                CompletableFuture.supplyAsync(() -> waiter.acquire(key, 30_000, 20_000, true), calls);
        Thread.sleep(500); // refused, subscribing: the release is not told
        long released = System.nanoTime();
        held.close();
        HeldLock taken = waiting.get(20, TimeUnit.SECONDS);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
        assertThat(taken).isNotNull();
        assertThat(tookMillis)
                .as("ms from the release to the waiter's lock: the subscription, then one poll at once")
                .isLessThan(3_000);
        assertThat(store.releaseListener().listening()).isTrue();
        taken.close();
    }

    @Test
    void theListeningSessionGoesBackToThePoolOpenAndNoLongerListening() throws Exception {
        String table = table("nback");
        JpaLockStore other = store(Pools.of(TestDatabases.url(JpaDatabase.POSTGRESQL), "org.postgresql.Driver"), table);
        ServerPool pool = pool(new ServerPool(2, false, 0));
        JpaLockStore store = store(pool, table);
        LockEngine holder = engine(other, 200);
        LockEngine waiter = engine(store, 200);
        String key = "back:" + UUID.randomUUID();
        HeldLock held = holder.acquire(key, 30_000, 0, false);
        assertThat(waiter.acquireOrNull(key, 30_000, 300, true)).isNull(); // refused: it subscribed
        assertThat(store.releaseListener().listening()).isTrue();
        held.close();

        store.close();
        assertThat(pool.physicalClosed())
                .as("pooled sessions ended underneath the pool")
                .isZero();
        for (Connection c : pool.physical) {
            try (var st = c.createStatement();
                    var rs = st.executeQuery("SELECT count(*) FROM pg_listening_channels()")) {
                rs.next();
                assertThat(rs.getInt(1))
                        .as("channels the pooled session still listens on")
                        .isZero();
            }
            Object executor = c.unwrap(org.postgresql.core.BaseConnection.class).getQueryExecutor();
            Object stream = field(executor, "pgStream").get(executor);
            assertThat(field(stream, "nextStreamAvailableCheckTime").getLong(stream))
                    .as("pgjdbc's read for more is back")
                    .isNotEqualTo(Long.MAX_VALUE);
        }
    }

    private static java.lang.reflect.Field field(Object on, String name) throws NoSuchFieldException {
        for (Class<?> type = on.getClass(); type != null; type = type.getSuperclass()) {
            try {
                java.lang.reflect.Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (NoSuchFieldException e) {
                // the superclass's
            }
        }
        throw new NoSuchFieldException(name);
    }

    private static String table(String prefix) {
        String table = "bt_" + prefix + "_" + TestDatabases.runSuffix();
        TestDatabases.created(JpaDatabase.POSTGRESQL, table);
        return table;
    }

    private <T extends AutoCloseable> T pool(T pool) {
        toClose.add(pool);
        return pool;
    }

    private JpaLockStore store(DataSource dataSource, String table) {
        JpaLockStore store = JpaLockStore.builder(dataSource)
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(SchemaAction.CREATE)
                .build();
        toClose.add(store);
        store.database();
        return store;
    }

    private LockEngine engine(LockStore store, long pollMillis) {
        LockEngine engine = new LockEngine(
                new ManagerSettings(
                        "", Optional.empty(), 30_000, 10_000, "", 0, false, new PollPolicy(pollMillis, pollMillis, 0)),
                store,
                scheduler,
                calls,
                LockListener.NONE);
        toClose.add(engine);
        return engine;
    }

    /**
     * A server's pool, as far as the store can tell: a few physical pgjdbc sessions, lent as the pool's own
     * wrappers (which may refuse to unwrap), each lent again once given back, whatever its state, and
     * counted if it was closed meanwhile; a connection asked for by the release listener's thread may be
     * lent late (a pool exhausted for it).
     */
    static final class ServerPool extends PlainDataSource implements AutoCloseable {

        private final List<Connection> physical = new ArrayList<>();
        private final BlockingQueue<Connection> idle = new LinkedBlockingQueue<>();
        private final boolean hideDriver;
        private final long listenerDelayMillis;
        final AtomicInteger lentClosed = new AtomicInteger();

        ServerPool(int size, boolean hideDriver, long listenerDelayMillis) {
            for (int i = 0; i < size; i++) {
                Connection c = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                physical.add(c);
                idle.add(c);
            }
            this.hideDriver = hideDriver;
            this.listenerDelayMillis = listenerDelayMillis;
        }

        /** @return the physical sessions, whether lent or idle */
        List<Connection> physical() {
            return physical;
        }

        long physicalClosed() throws SQLException {
            long closed = 0;
            for (Connection c : physical) {
                if (c.isClosed()) {
                    closed++;
                }
            }
            return closed;
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (listenerDelayMillis > 0 && Thread.currentThread().getName().startsWith(LISTENER_THREAD)) {
                try {
                    Thread.sleep(listenerDelayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLException("interrupted", e);
                }
            }
            Connection c;
            try {
                c = idle.poll(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", e);
            }
            if (c == null) {
                throw new SQLException("pool exhausted");
            }
            if (c.isClosed()) {
                lentClosed.incrementAndGet(); // lent all the same, as a pool that does not validate
            } else {
                c.setAutoCommit(true);
            }
            return wrap(c);
        }

        private Connection wrap(Connection c) {
            AtomicBoolean returned = new AtomicBoolean();
            return (Connection) Proxy.newProxyInstance(
                    ServerPoolNotificationTest.class.getClassLoader(),
                    new Class<?>[] {Connection.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "close" -> {
                            if (returned.compareAndSet(false, true)) {
                                idle.add(c);
                            }
                            yield null;
                        }
                        case "isClosed" -> returned.get() || c.isClosed();
                        case "isWrapperFor" -> !hideDriver && c.isWrapperFor((Class<?>) args[0]);
                        case "unwrap" -> {
                            if (hideDriver) {
                                throw new SQLException("the pool's wrapper does not unwrap");
                            }
                            yield c.unwrap((Class<?>) args[0]);
                        }
                        case "equals" -> proxy == args[0];
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "toString" -> "ServerPool wrapper of " + c;
                        default -> {
                            if (returned.get()) {
                                throw new SQLException("the handle was closed");
                            }
                            try {
                                yield method.invoke(c, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        }
                    });
        }

        @Override
        public void close() throws SQLException {
            for (Connection c : physical) {
                c.close();
            }
        }
    }
}
