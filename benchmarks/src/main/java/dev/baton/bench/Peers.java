package dev.baton.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * The peers of issue 38's table, which are <b>not Baton</b>: other lock libraries measured on the same databases, in
 * the same runs, as Baton and the raw baselines, so every comparison in BENCHMARKS.md can be reproduced. Each
 * {@link Instance} is one application instance of a library, set up as its documentation shows, with a pool or client
 * of its own: a JDBC peer stands on a HikariCP pool of the size the JPA store's persistence unit gets
 * ({@link Bench#dataSource}), whatever {@code --pool} says. Only this module depends on them; the product never does.
 *
 * <ul>
 * <li>{@code shedlock}: ShedLock's {@code JdbcTemplateLockProvider} ({@code usingDbTime()}, as its README
 * configures it), {@code lock(LockConfiguration)} with a lease of {@link Bench#TTL_MILLIS} and no minimum, then
 * {@code unlock()}. It only tries: a held key answers "empty" at once, so it cannot wait for a hand-off.</li>
 * <li>{@code si-jdbc}: Spring Integration's {@code JdbcLockRegistry} over a {@code DefaultLockRepository} (its own
 * client id) with a {@code DataSourceTransactionManager}, {@code obtain(key).lock()} then {@code unlock()}; a waiter
 * retries every 100 ms (the registry's default {@code idleBetweenTries}).</li>
 * <li>{@code si-redis}: Spring Integration's {@code RedisLockRegistry}, its default {@code SPIN_LOCK} type (a waiter
 * retries every 100 ms), on a Spring Data Redis {@code JedisConnectionFactory} with its default pool (Spring Data
 * Redis 4.1 drives Lettuce 7 only, and this JVM has the Lettuce 6.8 that Baton's store runs on); {@code si-redis-pubsub}: the same with {@code PUB_SUB_LOCK} (a waiter is woken by the release's
 * {@code PUBLISH}).</li>
 * <li>{@code redisson}: Redisson's {@code RLock} (the peer of issue 11), {@code getLock(key).lock()} (watchdog
 * lease) then {@code unlock()}; a waiter is woken by pub/sub. One {@code RedissonClient} per instance.</li>
 * </ul>
 */
final class Peers {

    static final List<String> JDBC = List.of("shedlock", "si-jdbc");
    static final List<String> REDIS = List.of("si-redis", "si-redis-pubsub", "redisson");

    /** ShedLock's table, as its README creates it. */
    static final String SHEDLOCK_TABLE = "shedlock";

    private Peers() {}

    /** @return the peers that run on a store (none on memory) */
    static List<String> on(String store) {
        return switch (store) {
            case "h2", "postgresql", "mariadb" -> JDBC;
            case "redis" -> REDIS;
            default -> List.of();
        };
    }

    /** @return whether the peer can wait for a held key (ShedLock cannot: it only tries) */
    static boolean waits(String peer) {
        return !peer.equals("shedlock");
    }

    /** What the report calls a peer. */
    static String label(String peer) {
        return switch (peer) {
            case "shedlock" ->
                "ShedLock " + version(LockProvider.class, "7.2.0")
                        + " JdbcTemplateLockProvider (usingDbTime), lock + unlock";
            case "si-jdbc" ->
                "Spring Integration " + version(JdbcLockRegistry.class, "7.1.2")
                        + " JdbcLockRegistry, obtain(key).lock() + unlock()";
            case "si-redis" ->
                "Spring Integration " + version(RedisLockRegistry.class, "7.1.2")
                        + " RedisLockRegistry (SPIN_LOCK, the default), lock() + unlock()";
            case "si-redis-pubsub" ->
                "Spring Integration " + version(RedisLockRegistry.class, "7.1.2")
                        + " RedisLockRegistry (PUB_SUB_LOCK), lock() + unlock()";
            case "redisson" -> "Redisson " + version(Redisson.class, "3.52.0") + " RLock, lock() (watchdog) + unlock()";
            default -> throw new IllegalArgumentException("unknown peer " + peer);
        };
    }

    private static String version(Class<?> type, String fallback) {
        String version = type.getPackage().getImplementationVersion();
        return version != null ? version : fallback;
    }

    /** What a lock call returns: gives the key back (on the thread that took it: the libraries check). */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** One application instance of a peer library. */
    interface Instance extends AutoCloseable {
        /**
         * Takes the key, waiting while another instance holds it (ShedLock cannot wait: it fails instead).
         *
         * @return what gives it back
         */
        Held lock(String key);

        @Override
        void close();
    }

    /**
     * A new instance of a peer, its table created if needed.
     *
     * @param peer shedlock, si-jdbc, si-redis, si-redis-pubsub or redisson
     * @param store the database: h2, postgresql or mariadb for the JDBC peers, redis for the others
     * @param namespace the Redis peers' key prefix (instances that share it contend for the same keys)
     * @param name the instance's name (its pool's, its owner value where the library takes one)
     * @return the instance; the caller closes it
     */
    static Instance instance(String peer, String store, String namespace, String name) {
        if (!on(store).contains(peer)) {
            throw new IllegalArgumentException("peer " + peer + " does not run on " + store);
        }
        return switch (peer) {
            case "shedlock" -> shedLock(store, name);
            case "si-jdbc" -> springJdbc(store, name);
            case "si-redis", "si-redis-pubsub" -> springRedis(namespace, peer.endsWith("pubsub"));
            case "redisson" -> redisson(namespace);
            default -> throw new IllegalArgumentException("unknown peer " + peer);
        };
    }

    // --- ShedLock ---

    private static Instance shedLock(String store, String name) {
        Bench.execute(store, shedLockTable(store));
        HikariDataSource pool = Bench.dataSource(store, "peer-" + name);
        LockProvider provider = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(pool))
                .usingDbTime()
                // its default is the host name, which it would look up: the instance's name says as much
                .withLockedByValue(name)
                .build());
        Duration lease = Duration.ofMillis(Bench.TTL_MILLIS);
        return new Instance() {
            @Override
            public Held lock(String key) {
                SimpleLock lock = provider.lock(new LockConfiguration(ClockProvider.now(), key, lease, Duration.ZERO))
                        .orElseThrow(() -> new IllegalStateException(
                                "ShedLock refused " + key + ": it only tries, and the key is held"));
                return lock::unlock;
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    /** ShedLock's table as its README gives it for the database (name up to 64 characters: the keys are shorter). */
    static String shedLockTable(String store) {
        String time = store.equals("mariadb") ? "TIMESTAMP(3)" : "TIMESTAMP";
        return "CREATE TABLE IF NOT EXISTS " + SHEDLOCK_TABLE + " (name VARCHAR(64) NOT NULL, lock_until " + time
                + " NOT NULL, locked_at " + time + " NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))";
    }

    // --- Spring Integration, JDBC ---

    private static Instance springJdbc(String store, String name) {
        Bench.execute(store, springLockTable(store));
        HikariDataSource pool = Bench.dataSource(store, "peer-" + name);
        // what the application context would do: a transaction manager bean, then the repository's life cycle
        DefaultLockRepository repository = new DefaultLockRepository(pool); // a client id (UUID) of its own
        repository.setTransactionManager(new DataSourceTransactionManager(pool));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        repository.start();
        JdbcLockRegistry registry = new JdbcLockRegistry(repository, Duration.ofMillis(Bench.TTL_MILLIS));
        return registryInstance(registry::obtain, () -> {
            try {
                repository.close(); // deletes what this client still holds
            } finally {
                pool.close();
            }
        });
    }

    /** An instance of a Spring Integration lock registry: {@code obtain(key).lock()}, then {@code unlock()}. */
    private static Instance registryInstance(Function<String, Lock> obtain, Runnable close) {
        return new Instance() {
            @Override
            public Held lock(String key) {
                Lock lock = obtain.apply(key);
                lock.lock();
                return lock::unlock;
            }

            @Override
            public void close() {
                close.run();
            }
        };
    }

    /**
     * Spring Integration's lock table, {@code INT_LOCK}, as the DDL in its jar creates it for the database
     * ({@code schema-<db>.sql}; only that table), {@code IF NOT EXISTS}.
     */
    static String springLockTable(String store) {
        String script = "org/springframework/integration/jdbc/schema-"
                + switch (store) {
                    case "postgresql" -> "postgresql";
                    case "mariadb" -> "mysql";
                    default -> "h2";
                }
                + ".sql";
        try (InputStream in = JdbcLockRegistry.class.getClassLoader().getResourceAsStream(script)) {
            if (in == null) {
                throw new IllegalStateException(script + " is not on the class path");
            }
            String ddl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher table = Pattern.compile("CREATE TABLE INT_LOCK\\b[^;]*", Pattern.CASE_INSENSITIVE)
                    .matcher(ddl);
            if (!table.find()) {
                throw new IllegalStateException("no CREATE TABLE INT_LOCK in " + script);
            }
            return table.group().replaceFirst("(?i)CREATE TABLE", "CREATE TABLE IF NOT EXISTS");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + script, e);
        }
    }

    // --- Spring Integration, Redis ---

    private static Instance springRedis(String namespace, boolean pubSub) {
        URI url = URI.create(Bench.url("redis"));
        // Jedis, not Lettuce: Spring Data Redis 4.1 needs Lettuce 7, and the JVM has the 6.8 of Baton's store
        JedisConnectionFactory factory =
                new JedisConnectionFactory(new RedisStandaloneConfiguration(url.getHost(), url.getPort()));
        factory.afterPropertiesSet(); // starts it (early start-up, the default)
        factory.start();
        RedisLockRegistry registry =
                new RedisLockRegistry(factory, "baton-bench:" + namespace, Duration.ofMillis(Bench.TTL_MILLIS));
        registry.setRedisLockType(
                pubSub ? RedisLockRegistry.RedisLockType.PUB_SUB_LOCK : RedisLockRegistry.RedisLockType.SPIN_LOCK);
        return registryInstance(registry::obtain, () -> {
            try {
                registry.destroy();
            } finally {
                factory.destroy();
            }
        });
    }

    // --- Redisson ---

    private static Instance redisson(String namespace) {
        Config config = new Config();
        config.useSingleServer().setAddress(Bench.url("redis"));
        RedissonClient client = Redisson.create(config);
        return new Instance() {
            @Override
            public Held lock(String key) {
                RLock lock = client.getLock("baton-bench:" + namespace + ":" + key);
                lock.lock();
                return lock::unlock;
            }

            @Override
            public void close() {
                client.shutdown();
            }
        };
    }
}
