package dev.baton.faults.store;

import dev.baton.etcd.EtcdLockStore;
import dev.baton.faults.db.Cluster;
import dev.baton.faults.db.Database;
import dev.baton.faults.db.Etcd;
import dev.baton.faults.db.EtcdCluster;
import dev.baton.faults.db.MariaDb;
import dev.baton.faults.db.Postgres;
import dev.baton.faults.db.Redis;
import dev.baton.faults.db.Server;
import dev.baton.faults.db.ZooKeeper;
import dev.baton.faults.db.ZooKeeperEnsemble;
import dev.baton.impl.store.file.FileLockStore;
import dev.baton.jpa.JpaDatabase;
import dev.baton.jpa.JpaLockStore;
import dev.baton.jpa.LockMode;
import dev.baton.redis.RedisLockStore;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import dev.baton.zookeeper.ZooKeeperLockStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A store the suite has started for a run: the application's database (for the JPA store, also the locks'),
 * the Redis server or the lock directory, and the {@code baton.*} settings a worker configures it with, as a
 * user would (MicroProfile Config, here from system properties).
 */
public final class StoreUnderTest implements AutoCloseable {

    private final StoreKind kind;
    private final Database database;
    private final Redis redis;
    private final ZooKeeper zookeeper;
    private final Etcd etcd;
    private final Cluster cluster;
    private final Path lockDir;

    /**
     * Starts what the store needs.
     *
     * @param kind the store
     * @param runDir the run directory, for data
     */
    public StoreUnderTest(StoreKind kind, Path runDir) {
        this.kind = kind;
        Path dbDir = runDir.resolve("db-" + kind.database().name().toLowerCase(java.util.Locale.ROOT));
        this.database = kind.database() == JpaDatabase.POSTGRESQL ? new Postgres(dbDir) : new MariaDb(dbDir);
        this.redis = kind.backend() == StoreKind.Backend.REDIS ? new Redis(runDir.resolve("redis")) : null;
        this.zookeeper = kind.backend() == StoreKind.Backend.ZOOKEEPER && !kind.cluster()
                ? new ZooKeeper(runDir.resolve("zookeeper"))
                : null;
        this.etcd =
                kind.backend() == StoreKind.Backend.ETCD && !kind.cluster() ? new Etcd(runDir.resolve("etcd")) : null;
        this.cluster = !kind.cluster()
                ? null
                : kind.backend() == StoreKind.Backend.ZOOKEEPER
                        ? new ZooKeeperEnsemble(runDir.resolve("zookeeper-ensemble"))
                        : new EtcdCluster(runDir.resolve("etcd-cluster"));
        this.lockDir = kind.backend() == StoreKind.Backend.FILE ? lockDirectory(kind, runDir) : null;
    }

    private static Path lockDirectory(StoreKind kind, Path runDir) {
        Path dir;
        if (kind == StoreKind.FILE_TMPFS) {
            Path shm = Path.of("/dev/shm");
            if (!Files.isDirectory(shm) || !Files.isWritable(shm)) {
                throw new IllegalStateException("file-tmpfs needs a writable /dev/shm (tmpfs); this machine has none:"
                        + " leave file-tmpfs out of faults.stores");
            }
            dir = shm.resolve("baton-faults-" + ProcessHandle.current().pid());
        } else {
            dir = runDir.resolve("locks");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the lock directory " + dir, e);
        }
        return dir.toAbsolutePath();
    }

    /** @return the store */
    public StoreKind kind() {
        return kind;
    }

    /** @return the application's database (for the JPA store, the locks' too) */
    public Database database() {
        return database;
    }

    /** @return the server that holds the locks and that the nemesis stops, restarts or pauses; none for files */
    public Optional<Server> lockServer() {
        if (kind.locksInDatabase()) {
            return Optional.of(database);
        }
        if (redis != null) {
            return Optional.of(redis);
        }
        if (cluster != null) {
            return Optional.of(cluster);
        }
        return zookeeper != null ? Optional.of(zookeeper) : Optional.ofNullable(etcd);
    }

    /** @return the cluster of the store's server, for the entries on three members */
    public Optional<Cluster> cluster() {
        return Optional.ofNullable(cluster);
    }

    /** @return the Redis server, for the Redis store */
    public Optional<Redis> redis() {
        return Optional.ofNullable(redis);
    }

    /**
     * Asks the store itself, built with the workers' settings, whether it keeps shared leases (permits, read locks):
     * whether it declares {@link StoreCapability#SHARED_LOCKS}. No store connects before its first call, so this
     * touches no server.
     *
     * @return whether the store declares {@code SHARED_LOCKS}
     */
    public boolean declaresSharedLocks() {
        try (LockStore store = switch (kind.backend()) {
            case JPA_TABLE -> JpaLockStore.builder(dataSource()).build();
            case JPA_ADVISORY ->
                JpaLockStore.builder(dataSource()).mode(LockMode.ADVISORY).build();
            case REDIS -> RedisLockStore.builder(Redis.url(redis.port())).build();
            case ZOOKEEPER ->
                ZooKeeperLockStore.builder(
                                ZooKeeper.connect(lockServer().orElseThrow().port()))
                        .build();
            case ETCD ->
                EtcdLockStore.builder(Etcd.endpoint(lockServer().orElseThrow().port()))
                        .build();
            case FILE -> new FileLockStore(lockDir);
        }) {
            return store.capabilities().contains(StoreCapability.SHARED_LOCKS);
        }
    }

    private DataSource dataSource() {
        if (database.kind() == JpaDatabase.POSTGRESQL) {
            org.postgresql.ds.PGSimpleDataSource postgres = new org.postgresql.ds.PGSimpleDataSource();
            postgres.setUrl(database.directUrl());
            return postgres;
        }
        try {
            return new org.mariadb.jdbc.MariaDbDataSource(database.directUrl());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot make a data source of " + database.directUrl() + ": " + e, e);
        }
    }

    /**
     * @return the ports each worker's proxies forward to, one proxy each: every member of a cluster, else the lock
     *     server's, else the application's database
     */
    public List<Integer> proxyTargets() {
        if (cluster != null) {
            return cluster.ports();
        }
        return List.of(lockServer().map(Server::port).orElse(database.port()));
    }

    /**
     * The system properties of a worker: its Baton settings and where its application data is.
     *
     * @param slot the worker's slot
     * @param proxyPorts the ports of its proxies to {@link #proxyTargets()}, in their order
     * @param ttlMillis the workers' lock ttl
     * @return {@code -D...} arguments
     */
    public List<String> workerProperties(int slot, List<Integer> proxyPorts, long ttlMillis) {
        int proxyPort = proxyPorts.get(0);
        List<String> props = new ArrayList<>();
        boolean proxiedDatabase = lockServer().map(s -> s == database).orElse(true);
        props.add("-Dfaults.jdbc-url=" + database.workerUrl(proxiedDatabase ? proxyPort : database.port()));
        props.add("-Dfaults.database=" + database.kind().name());
        props.add("-Dfaults.fenced-writes=" + kind.fencedWrites());
        switch (kind.backend()) {
            case JPA_TABLE, JPA_ADVISORY -> {
                props.add("-Dbaton.store=jpa");
                props.add("-Dbaton.jpa.schema-action=validate");
                if (kind.backend() == StoreKind.Backend.JPA_ADVISORY) {
                    props.add("-Dbaton.jpa.mode=advisory");
                    if (Boolean.getBoolean(StoreKind.ADVISORY_CASE_PROPERTY)
                            && kind.database() == JpaDatabase.POSTGRESQL
                            && slot % 2 == 1) {
                        // the same table to PostgreSQL, which folds unquoted names to lower case (MariaDB on
                        // Linux does not: there it would be another table)
                        props.add("-Dbaton.jpa.table=BATON_LOCKS");
                    }
                }
            }
            case REDIS -> {
                props.add("-Dbaton.store=redis");
                props.add("-Dbaton.redis.url=" + Redis.url(proxyPort));
            }
            case ZOOKEEPER -> {
                props.add("-Dbaton.store=zookeeper");
                props.add("-Dbaton.zookeeper.connect="
                        + (cluster != null ? ZooKeeperEnsemble.connect(proxyPorts) : ZooKeeper.connect(proxyPort)));
                // the session as long as the lease: renewals (every third of it) come well within the two thirds
                // after which the store counts its locks lost
                props.add("-Dbaton.zookeeper.session-timeout=" + ttlMillis + "ms");
            }
            case ETCD -> {
                props.add("-Dbaton.store=etcd");
                props.add("-Dbaton.etcd.endpoints="
                        + (cluster != null ? EtcdCluster.endpoints(proxyPorts) : Etcd.endpoint(proxyPort)));
                // the lease as long as the lock's ttl, in whole seconds (etcd's unit), at least 2 s
                props.add("-Dbaton.etcd.lease-ttl=" + Math.max(2, (ttlMillis + 999) / 1_000) + "s");
            }
            case FILE -> {
                props.add("-Dbaton.store=file");
                props.add("-Dbaton.file.directory=" + lockDir);
                props.add("-D" + StoreKind.FILE_READER_PROPERTY + "=" + StoreKind.fileReader());
            }
        }
        return props;
    }

    @Override
    public void close() {
        try {
            if (redis != null) {
                redis.close();
            }
            if (zookeeper != null) {
                zookeeper.close();
            }
            if (etcd != null) {
                etcd.close();
            }
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            database.close();
            if (lockDir != null && kind == StoreKind.FILE_TMPFS) {
                deleteQuietly(lockDir);
            }
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // tmpfs: gone at the next boot anyway
        }
    }
}
