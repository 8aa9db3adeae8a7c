package dev.baton.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The raw baseline: the two statements a lock store cannot do without, over plain JDBC in autocommit, on a
 * connection of its own (no pool, no transaction of ours) — an upsert that takes the key if it is free or
 * expired, and an update that gives it back. No fencing token, no remaining lease, no bounds: the limit
 * of the database for one acquire+release cycle. For the memory store, a {@link ConcurrentHashMap}; for
 * Redis, {@link RawRedis} ({@code SET NX PX} and a compare-and-delete script); for ZooKeeper, etcd and MongoDB,
 * their own clients ({@link RawZooKeeper}, {@link RawEtcd}, {@link RawMongo}).
 */
public final class RawLocks implements AutoCloseable {

    public static final String TABLE = "bench_raw";

    private final Connection connection;
    private final PreparedStatement acquire;
    private final PreparedStatement release;
    private final ConcurrentHashMap<String, String> memory;
    private final RawRedis redis;
    private final RawClient client;

    private RawLocks(
            Connection connection,
            PreparedStatement acquire,
            PreparedStatement release,
            ConcurrentHashMap<String, String> memory,
            RawRedis redis) {
        this(connection, acquire, release, memory, redis, null);
    }

    private RawLocks(
            Connection connection,
            PreparedStatement acquire,
            PreparedStatement release,
            ConcurrentHashMap<String, String> memory,
            RawRedis redis,
            RawClient client) {
        this.connection = connection;
        this.acquire = acquire;
        this.release = release;
        this.memory = memory;
        this.redis = redis;
        this.client = client;
    }

    /** @return whether the store's baseline is its own client's, not SQL */
    static boolean clientStore(String store) {
        return store.equals("zookeeper") || store.equals("etcd") || store.equals("mongodb");
    }

    private static final ConcurrentHashMap<String, String> MEMORY = new ConcurrentHashMap<>();

    /** Creates the table if needed. */
    public static void createTable(String store) {
        if (store.equals("memory") || store.equals("redis") || clientStore(store)) {
            return;
        }
        Bench.execute(
                store,
                switch (store) {
                    case "postgresql" ->
                        "CREATE TABLE IF NOT EXISTS " + TABLE + " (lock_key VARCHAR(255) PRIMARY KEY,"
                                + " owner VARCHAR(64) NOT NULL, expires_at TIMESTAMP WITH TIME ZONE NOT NULL)";
                    case "mariadb" ->
                        "CREATE TABLE IF NOT EXISTS " + TABLE + " (lock_key VARCHAR(255) PRIMARY KEY,"
                                + " owner VARCHAR(64) NOT NULL, expires_at DATETIME(6) NOT NULL) ENGINE=InnoDB";
                    default ->
                        "CREATE TABLE IF NOT EXISTS " + TABLE + " (lock_key VARCHAR(255) PRIMARY KEY,"
                                + " owner VARCHAR(64) NOT NULL, expires_at TIMESTAMP WITH TIME ZONE NOT NULL)";
                });
    }

    /**
     * One client's connection and statements.
     *
     * @param store memory, h2, postgresql, mariadb or redis
     * @return the raw locks of one client
     */
    public static RawLocks open(String store) {
        if (store.equals("memory")) {
            return new RawLocks(null, null, null, MEMORY, null);
        }
        if (store.equals("redis")) {
            return new RawLocks(null, null, null, null, RawRedis.open());
        }
        if (clientStore(store)) {
            RawClient raw = switch (store) {
                case "zookeeper" -> RawZooKeeper.open(Bench.url(store));
                case "etcd" -> RawEtcd.open(Bench.url(store));
                default -> RawMongo.open(Bench.url(store));
            };
            return new RawLocks(null, null, null, null, null, raw);
        }
        Connection c = Bench.connect(store);
        try {
            return new RawLocks(
                    c, c.prepareStatement(acquireSql(store)), c.prepareStatement(releaseSql(store)), null, null);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static String acquireSql(String store) {
        return switch (store) {
            case "postgresql" ->
                "INSERT INTO " + TABLE + " AS l (lock_key, owner, expires_at)"
                        + " VALUES (?, ?, clock_timestamp() + CAST(? AS BIGINT) * INTERVAL '1 millisecond')"
                        + " ON CONFLICT (lock_key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at"
                        + " WHERE l.expires_at <= clock_timestamp()";
            // assignments run left to right: the expiry is taken only where the owner just was
            case "mariadb" ->
                "INSERT INTO " + TABLE + " (lock_key, owner, expires_at)"
                        + " VALUES (?, ?, NOW(6) + INTERVAL (? * 1000) MICROSECOND)"
                        + " ON DUPLICATE KEY UPDATE owner = IF(expires_at <= NOW(6), VALUE(owner), owner),"
                        + " expires_at = IF(owner = VALUE(owner), VALUE(expires_at), expires_at)";
            default ->
                "MERGE INTO " + TABLE + " l USING (VALUES (CAST(? AS VARCHAR(255)), CAST(? AS VARCHAR(64)),"
                        + " CAST(? AS BIGINT))) s(k, o, ttl) ON l.lock_key = s.k"
                        + " WHEN MATCHED AND l.expires_at <= CURRENT_TIMESTAMP THEN UPDATE SET owner = s.o,"
                        + " expires_at = DATEADD(MILLISECOND, s.ttl, CURRENT_TIMESTAMP)"
                        + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.o, DATEADD(MILLISECOND, s.ttl, CURRENT_TIMESTAMP))";
        };
    }

    static String releaseSql(String store) {
        String past =
                store.equals("mariadb") ? "'1970-01-02 00:00:00'" : "TIMESTAMP WITH TIME ZONE '1970-01-02 00:00:00+00'";
        return "UPDATE " + TABLE + " SET expires_at = " + past + " WHERE lock_key = ? AND owner = ?";
    }

    /** Takes the key for {@code owner} if it is free or expired: one statement. */
    public boolean acquire(String key, String owner, long ttlMillis) {
        if (memory != null) {
            return memory.putIfAbsent(key, owner) == null;
        }
        if (redis != null) {
            return redis.acquire(key, owner, ttlMillis);
        }
        if (client != null) {
            return client.acquire(key, owner, ttlMillis);
        }
        try {
            acquire.setString(1, key);
            acquire.setString(2, owner);
            acquire.setLong(3, ttlMillis);
            return acquire.executeUpdate() > 0;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Gives the key back: one statement. */
    public boolean release(String key, String owner) {
        if (memory != null) {
            return memory.remove(key, owner);
        }
        if (redis != null) {
            return redis.release(key, owner);
        }
        if (client != null) {
            return client.release(key, owner);
        }
        try {
            release.setString(1, key);
            release.setString(2, owner);
            return release.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The store's own client (zookeeper, etcd, mongodb), for the notified baselines. */
    RawClient client() {
        return client;
    }

    /** The Redis side (redis only), for the pub/sub baseline. */
    RawRedis redis() {
        return redis;
    }

    /** The connection, for the LISTEN/NOTIFY baseline. */
    public Connection connection() {
        return connection;
    }

    @Override
    public void close() {
        if (redis != null) {
            redis.close();
        }
        if (client != null) {
            client.close();
        }
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // nothing to do
            }
        }
    }
}
