package dev.baton.redis.testing;

import dev.baton.redis.RedisLockStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A test's stores on the test Redis under a key prefix of their own, each with a client name to find its
 * connections by, and the test's own connection beside them, to look at and act on the server. Closing it
 * closes the stores.
 */
public final class StoresOnTestRedis implements AutoCloseable {

    private final String prefix;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final List<RedisLockStore> stores = new ArrayList<>();

    /** @param name the start of the key prefix below this run's, e.g. {@code handoff} */
    public StoresOnTestRedis(String name) {
        prefix =
                TestRedis.RUN_PREFIX + name + "-" + UUID.randomUUID().toString().substring(0, 6) + ":";
        client = RedisClient.create(TestRedis.url());
        connection = client.connect();
    }

    /** @return the key prefix of the stores */
    public String prefix() {
        return prefix;
    }

    /**
     * @param clientName the name the store's connections give the server
     * @return a new store, closed with this
     */
    public RedisLockStore store(String clientName) {
        RedisURI uri = RedisURI.builder(RedisURI.create(TestRedis.url()))
                .withClientName(clientName)
                .build();
        RedisLockStore store = RedisLockStore.builder(uri).keyPrefix(prefix).build();
        stores.add(store);
        return store;
    }

    /** @return the client of the test's own connection, for connections of other codecs */
    public RedisClient client() {
        return client;
    }

    /** @return the synchronous commands of the test's own connection */
    public RedisCommands<String, String> redis() {
        return connection.sync();
    }

    /**
     * @param clientName the name the connections gave the server
     * @return the ids of those connections that hold a subscription
     */
    public List<Long> subscriberIds(String clientName) {
        List<Long> ids = new ArrayList<>();
        for (String line : redis().clientList().split("\n")) {
            if (line.contains(" name=" + clientName + " ") && !line.contains(" sub=0 ")) {
                ids.add(Long.parseLong(line.substring(line.indexOf("id=") + 3, line.indexOf(' '))));
            }
        }
        return ids;
    }

    @Override
    public void close() {
        stores.forEach(RedisLockStore::close);
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
