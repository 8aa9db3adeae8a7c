package dev.baton.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The raw Redis baseline: the two-round-trip lock every Redis guide shows, over Lettuce on a connection of
 * its own — {@code SET key owner NX PX ttl} to take a key, and a compare-and-delete script to give it back
 * (sent by SHA, as a careful client does: the script text is not resent on every call). No fencing token, no
 * remaining lease, no turn, no renewal: the limit of Redis for one acquire+release cycle.
 *
 * <p>For the hand-off the release can also {@code PUBLISH} the key in the same script (one round trip), and
 * a waiter can block on a subscription of its own; for the renewal a batch is one script that renews every
 * key still owned ({@code GET} == owner, then {@code PEXPIRE}).
 */
final class RawRedis implements AutoCloseable {

    static final String CHANNEL = "baton-bench:raw-released";

    private static final String RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
            return 0""";
    private static final String RELEASE_AND_PUBLISH = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              redis.call('DEL', KEYS[1])
              redis.call('PUBLISH', ARGV[2], KEYS[1])
              return 1
            end
            return 0""";
    private static final String RENEW_ALL = """
            local out = {}
            for i, k in ipairs(KEYS) do
              if redis.call('GET', k) == ARGV[i + 1] then
                out[i] = redis.call('PEXPIRE', k, ARGV[1])
              else
                out[i] = 0
              end
            end
            return out""";

    private static RedisClient client;

    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;
    private final String release;
    private final String releaseAndPublish;
    private final String renewAll;

    private RawRedis(StatefulRedisConnection<String, String> connection) {
        this.connection = connection;
        this.redis = connection.sync();
        this.release = redis.scriptLoad(RELEASE);
        this.releaseAndPublish = redis.scriptLoad(RELEASE_AND_PUBLISH);
        this.renewAll = redis.scriptLoad(RENEW_ALL);
    }

    /** One Lettuce client per JVM (its event loops), as an application would have; a connection per user. */
    static synchronized RedisClient client() {
        if (client == null) {
            client = RedisClient.create(Bench.url("redis"));
            RedisClient c = client;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> c.shutdown(Duration.ZERO, Duration.ofSeconds(2))));
        }
        return client;
    }

    /** @return one client's connection, its scripts loaded */
    static RawRedis open() {
        return new RawRedis(client().connect());
    }

    /** {@code SET key owner NX PX ttl}: one round trip. */
    boolean acquire(String key, String owner, long ttlMillis) {
        return redis.set(key, owner, SetArgs.Builder.nx().px(ttlMillis)) != null;
    }

    /** The compare-and-delete script: one round trip. */
    boolean release(String key, String owner) {
        return redis.<Long>evalsha(release, ScriptOutputType.INTEGER, new String[] {key}, owner) == 1;
    }

    /** Compare-and-delete and {@code PUBLISH} the key on {@link #CHANNEL}, in one script. */
    boolean releaseAndPublish(String key, String owner) {
        return redis.<Long>evalsha(releaseAndPublish, ScriptOutputType.INTEGER, new String[] {key}, owner, CHANNEL)
                == 1;
    }

    /**
     * Renews every key still owned by its owner in one script call.
     *
     * @param keys the keys
     * @param ownersAfterTtl ARGV: the ttl in milliseconds, then the owner of each key in order
     * @return how many were renewed
     */
    int renewAll(String[] keys, String[] ownersAfterTtl) {
        List<Long> out = redis.evalsha(renewAll, ScriptOutputType.MULTI, keys, ownersAfterTtl);
        int renewed = 0;
        for (Long one : out) {
            renewed += one.intValue();
        }
        return renewed;
    }

    /** Takes many keys (the renewal's held locks), one {@code SET NX PX} each; set-up, not measured. */
    void acquireAll(String[] keys, String owner, long ttlMillis) {
        for (String key : keys) {
            if (!acquire(key, owner, ttlMillis)) {
                throw new IllegalStateException("the raw baseline did not get its own key " + key);
            }
        }
    }

    RedisCommands<String, String> commands() {
        return redis;
    }

    @Override
    public void close() {
        connection.close();
    }

    /**
     * A waiter's subscription to {@link #CHANNEL}: each message is a permit, so a waiter blocks until the
     * next release (or a bound passes) and then tries its {@code SET NX} again.
     */
    static final class Subscription implements AutoCloseable {
        private final StatefulRedisPubSubConnection<String, String> pubSub;
        private final Semaphore released = new Semaphore(0);

        Subscription() {
            pubSub = client().connectPubSub();
            pubSub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    released.release();
                }
            });
            pubSub.sync().subscribe(CHANNEL);
        }

        /** Blocks until a release was published (a stale permit only costs one more try). */
        void awaitRelease(long millis) throws InterruptedException {
            released.tryAcquire(millis, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            pubSub.close();
        }
    }
}
