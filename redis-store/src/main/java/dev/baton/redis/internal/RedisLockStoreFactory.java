package dev.baton.redis.internal;

import dev.baton.LockConfigurationException;
import dev.baton.LockStoreDriverNotFoundException;
import dev.baton.redis.RedisLockStore;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code baton.store=redis}. Settings (below {@code baton.redis.}, or {@code baton.<manager>.redis.}):
 * <ul>
 * <li>{@code url}: {@code redis://[[user:]password@]host[:port][/database]}, or {@code rediss://} for TLS;
 * when absent, the application's {@code RedisClient} (or {@code RedisClusterClient}) CDI bean is used;</li>
 * <li>{@code cluster} (default {@code false}): whether {@code url} names a node of a Redis Cluster;</li>
 * <li>{@code key-prefix} (default {@code baton:}): the prefix of the store's Redis keys and channel;</li>
 * <li>{@code command-timeout} (default {@code 5s}): how long connecting and a command may take when the
 * caller gives no bound, and at most when it does. A duration: {@code 500ms}, {@code 5s}, {@code 1m},
 * ISO-8601 ({@code PT5S}) or plain milliseconds;</li>
 * <li>{@code allow-eviction} (default {@code false}): {@code true} lets the store run on a Redis whose
 * {@code maxmemory-policy} evicts keys, with a warning; else it refuses one when it connects.</li>
 * </ul>
 * Lettuce classes are touched only after {@link #validate} has found them, so a missing client is
 * reported as {@link LockStoreDriverNotFoundException}.
 */
public final class RedisLockStoreFactory implements LockStoreFactory {

    /** The store name. */
    public static final String NAME = "redis";

    static final String URL = "url";
    static final String CLUSTER = "cluster";
    static final String KEY_PREFIX = "key-prefix";
    static final String COMMAND_TIMEOUT = "command-timeout";
    static final String ALLOW_EVICTION = "allow-eviction";

    /** What to add when the client is missing. */
    static final String CLIENT = "the Lettuce Redis client (Maven artifact io.lettuce:lettuce-core, 6.8 or later;"
            + " baton-redis-store brings it unless it was excluded)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<java.util.Set<String>> settingNames() {
        return Optional.of(java.util.Set.of(URL, CLUSTER, KEY_PREFIX, COMMAND_TIMEOUT, ALLOW_EVICTION));
    }

    @Override
    public java.util.Set<String> beanTypes() {
        return java.util.Set.of("io.lettuce.core.RedisClient", "io.lettuce.core.cluster.RedisClusterClient");
    }

    @Override
    public void validate(StoreContext context) {
        requireLettuce();
        Settings.read(context);
    }

    @Override
    public LockStore create(StoreContext context) {
        requireLettuce();
        return Settings.read(context).builder(context).build();
    }

    private static void requireLettuce() {
        try {
            Class.forName("io.lettuce.core.RedisClient", false, RedisLockStoreFactory.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new LockStoreDriverNotFoundException(NAME, CLIENT, e);
        }
    }

    /** The settings, read and checked; the only part of the factory that touches Lettuce. */
    private record Settings(
            Optional<RedisURI> uri, boolean cluster, String keyPrefix, Duration commandTimeout, boolean allowEviction) {

        static Settings read(StoreContext context) {
            String keyPrefix = context.setting(KEY_PREFIX).orElse(RedisLockStore.DEFAULT_KEY_PREFIX);
            try {
                RedisSettings.requireValidKeyPrefix(keyPrefix);
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(
                        context.settingKey(KEY_PREFIX) + "='" + keyPrefix + "': " + e.getMessage(), e);
            }
            Duration timeout = RedisLockStore.DEFAULT_COMMAND_TIMEOUT;
            Optional<String> timeoutText = context.setting(COMMAND_TIMEOUT);
            if (timeoutText.isPresent()) {
                try {
                    timeout = RedisSettings.duration(timeoutText.get());
                } catch (IllegalArgumentException e) {
                    throw new LockConfigurationException(
                            context.settingKey(COMMAND_TIMEOUT) + "='" + timeoutText.get() + "' " + e.getMessage(), e);
                }
            }
            boolean cluster = flag(context, CLUSTER);
            boolean allowEviction = flag(context, ALLOW_EVICTION);
            Optional<String> url = context.setting(URL);
            if (url.isEmpty()) {
                if (cluster) {
                    throw new LockConfigurationException(context.settingKey(CLUSTER) + "=true needs "
                            + context.settingKey(URL) + " (a node of the cluster); without a URL, produce a"
                            + " RedisClusterClient bean instead");
                }
                if (context.bean(RedisClient.class).isEmpty()
                        && context.bean(RedisClusterClient.class).isEmpty()) {
                    throw new LockConfigurationException(
                            "The Redis lock store needs a server: set " + context.settingKey(URL)
                                    + " (redis://host:port[/database], or rediss:// for TLS), or let the application provide a"
                                    + " RedisClient or RedisClusterClient CDI bean");
                }
                return new Settings(Optional.empty(), false, keyPrefix, timeout, allowEviction);
            }
            RedisURI uri;
            try {
                uri = RedisSettings.parse(url.get());
            } catch (IllegalArgumentException e) {
                throw new LockConfigurationException(context.settingKey(URL) + ": " + e.getMessage(), e);
            }
            if (cluster && uri.getDatabase() != 0) {
                throw new LockConfigurationException(context.settingKey(URL) + "='" + RedisSettings.masked(url.get())
                        + "' names database " + uri.getDatabase() + ", but a Redis Cluster has only database 0");
            }
            return new Settings(Optional.of(uri), cluster, keyPrefix, timeout, allowEviction);
        }

        private static boolean flag(StoreContext context, String name) {
            Optional<String> value = context.setting(name).map(v -> v.strip().toLowerCase(Locale.ROOT));
            if (value.isEmpty()) {
                return false;
            }
            return switch (value.get()) {
                case "true" -> true;
                case "false" -> false;
                default ->
                    throw new LockConfigurationException(context.settingKey(name) + "='"
                            + context.setting(name).orElse("") + "' must be true or false");
            };
        }

        RedisLockStore.Builder builder(StoreContext context) {
            RedisLockStore.Builder builder;
            if (uri.isPresent()) {
                builder = RedisLockStore.builder(uri.get()).cluster(cluster);
            } else {
                Optional<RedisClient> client = context.bean(RedisClient.class);
                builder = client.isPresent()
                        ? RedisLockStore.builder(client.get())
                        : RedisLockStore.builder(
                                context.bean(RedisClusterClient.class).orElseThrow());
            }
            return builder.keyPrefix(keyPrefix).commandTimeout(commandTimeout).allowEviction(allowEviction);
        }
    }
}
