package dev.baton.redis.internal;

import dev.baton.redis.internal.Scripts.Script;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.Renewal;
import dev.baton.spi.Turn;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The store's operations as calls of its {@link Scripts}: a key's Redis key is the prefix and the key in UTF-8,
 * owners and waiters go as ASCII, numbers as decimal text; each script goes by its SHA ({@code EVALSHA}), and by
 * its text ({@code EVAL}) when the server does not know it (any more); the answers become the SPI's results.
 * Each call is bounded by the time it is given, on the {@link StoreConnection}.
 */
public final class ScriptCalls {

    /** A batch renewal sends at most this many keys per script, so one script never runs long. */
    public static final int RENEW_CHUNK = 500;

    private static final byte[] NO_WAITER = new byte[0];

    private final StoreConnection connection;
    private final boolean cluster;
    private final byte[] prefix;
    private final byte[] channel;
    private final Runnable connected;

    /**
     * @param connection the store's connection
     * @param cluster whether the backend is a Redis Cluster (a script's keys must share a slot)
     * @param settings the key prefix and the release channel
     * @param connected run by each call of one key once the connection is open, before its script is sent
     */
    public ScriptCalls(StoreConnection connection, boolean cluster, StoreSettings settings, Runnable connected) {
        this.connection = connection;
        this.cluster = cluster;
        this.prefix = settings.keyPrefixUtf8();
        this.channel = settings.releaseChannel();
        this.connected = connected;
    }

    /**
     * An exclusive acquisition runs {@link Scripts#ACQUIRE}, a shared one {@link Scripts#ACQUIRE_SHARED} with its
     * limit as a sixth argument: one script, one round trip, either way.
     *
     * @param acquisition the request
     * @param timeoutMillis how long to wait for the answer
     * @return acquired, next in turn or not acquired
     */
    public AcquireResult acquire(Acquisition acquisition, long timeoutMillis) {
        Turn turn = acquisition.turn();
        byte[] owner = ascii(acquisition.owner());
        byte[] ttl = number(acquisition.ttlMillis());
        byte[] waiter = turn == null ? NO_WAITER : ascii(turn.waiter());
        byte[] waited = number(turn == null ? 0 : turn.waitedMillis());
        byte[] keep = number(turn == null ? 1 : turn.keepMillis());
        List<Object> answer = acquisition.isShared()
                ? run(
                        "shared acquire",
                        acquisition.key(),
                        Scripts.ACQUIRE_SHARED,
                        ScriptOutputType.MULTI,
                        new byte[][] {owner, ttl, waiter, waited, keep, number(acquisition.sharedLimit())},
                        timeoutMillis)
                : run(
                        "acquire",
                        acquisition.key(),
                        Scripts.ACQUIRE,
                        ScriptOutputType.MULTI,
                        new byte[][] {owner, ttl, waiter, waited, keep},
                        timeoutMillis);
        long first = (Long) answer.get(0);
        long second = (Long) answer.get(1);
        if (first == 1) {
            return AcquireResult.acquired(second);
        }
        boolean inTurn = (Long) answer.get(2) == 1;
        if (second < 0) {
            return inTurn ? AcquireResult.nextInTurn() : AcquireResult.notAcquired();
        }
        return inTurn ? AcquireResult.nextInTurn(second) : AcquireResult.notAcquired(second);
    }

    /**
     * @param key the key
     * @param waiter the waiter of the turn
     * @param timeoutMillis how long to wait for the answer
     * @return whether the waiter held the key's turn
     */
    public boolean leaveTurn(String key, String waiter, long timeoutMillis) {
        Long left = run(
                "leaveTurn",
                key,
                Scripts.LEAVE_TURN,
                ScriptOutputType.INTEGER,
                new byte[][] {ascii(waiter), channel},
                timeoutMillis);
        return left == 1;
    }

    /**
     * @param renewal the request
     * @param timeoutMillis how long to wait for the answer
     * @return whether the owner's live lock (exclusive, or a shared lease) was extended
     */
    public boolean renew(Renewal renewal, long timeoutMillis) {
        Long renewed = run(
                "renew",
                renewal.key(),
                Scripts.RENEW,
                ScriptOutputType.INTEGER,
                new byte[][] {ascii(renewal.owner()), number(renewal.ttlMillis())},
                timeoutMillis);
        return renewed == 1;
    }

    /**
     * @param key the key
     * @param owner the owner
     * @param timeoutMillis how long to wait for the answer
     * @return whether the owner's live lock (exclusive, or a shared lease) is now gone
     */
    public boolean release(String key, String owner, long timeoutMillis) {
        Long released = run(
                "release",
                key,
                Scripts.RELEASE,
                ScriptOutputType.INTEGER,
                new byte[][] {ascii(owner), channel},
                timeoutMillis);
        return released == 1;
    }

    /**
     * {@link Scripts#HAND_OVER}; when the owner held no live exclusive lock, {@code next}'s acquisition alone, as
     * {@link #acquire} takes it: the owner's shared lease, if it has one, stays (a hand-over passes an exclusive lock).
     *
     * @param owner the owner releasing the key
     * @param next the exclusive acquisition, without a turn, the key goes to
     * @param timeoutMillis how long to wait for each answer
     * @return what was released and what {@code next} got
     */
    public HandOverResult handOver(String owner, Acquisition next, long timeoutMillis) {
        List<Object> answer = run(
                "hand over",
                next.key(),
                Scripts.HAND_OVER,
                ScriptOutputType.MULTI,
                new byte[][] {ascii(owner), ascii(next.owner()), number(next.ttlMillis()), channel},
                timeoutMillis);
        if ((Long) answer.get(0) == 1) {
            return new HandOverResult(true, AcquireResult.acquired((Long) answer.get(1)));
        }
        if ((Long) answer.get(1) == 1) {
            return new HandOverResult(true, AcquireResult.notAcquired()); // kept for another waiter's turn
        }
        return new HandOverResult(false, acquire(next, timeoutMillis));
    }

    /**
     * @param key the key
     * @param timeoutMillis how long to wait for the answer
     * @return the live holder (of a key held by shared leases: the one with the greatest token), if any
     */
    public Optional<Holder> inspect(String key, long timeoutMillis) {
        List<Object> answer =
                run("inspect", key, Scripts.INSPECT, ScriptOutputType.MULTI, new byte[0][], timeoutMillis);
        if (answer.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Holder(
                new String((byte[]) answer.get(0), StandardCharsets.US_ASCII),
                Long.parseLong(new String((byte[]) answer.get(1), StandardCharsets.US_ASCII)),
                (Long) answer.get(2)));
    }

    /**
     * One script call per cluster slot (one in all on a single server), sent together, each with at most
     * {@value #RENEW_CHUNK} keys.
     *
     * @param leases the locks to renew
     * @param ttlMillis the new lease
     * @param timeoutMillis how long to wait for all the answers
     * @return the leases renewed
     */
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long timeoutMillis) {
        connection.requireOpen();
        if (leases.isEmpty()) {
            return Set.of();
        }
        long deadline = StoreConnection.deadline(timeoutMillis);
        String what = "renewing " + leases.size() + " leases";
        RedisConnector.Connection open = connection.open(deadline, what);
        Map<Integer, List<Lease>> groups = new LinkedHashMap<>();
        for (Lease lease : leases) {
            int group = cluster ? SlotHash.getSlot(recordKey(lease.key())) : 0;
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(lease);
        }
        List<List<Lease>> chunks = new ArrayList<>();
        List<CompletableFuture<List<Object>>> answers = new ArrayList<>();
        for (List<Lease> group : groups.values()) {
            for (int from = 0; from < group.size(); from += RENEW_CHUNK) {
                List<Lease> chunk = group.subList(from, Math.min(group.size(), from + RENEW_CHUNK));
                byte[][] keys = new byte[chunk.size()][];
                byte[][] args = new byte[chunk.size() + 1][];
                args[0] = number(ttlMillis);
                for (int i = 0; i < chunk.size(); i++) {
                    keys[i] = recordKey(chunk.get(i).key());
                    args[i + 1] = ascii(chunk.get(i).owner());
                }
                chunks.add(chunk);
                answers.add(evaluate(open, Scripts.RENEW_ALL, ScriptOutputType.MULTI, keys, args));
            }
        }
        Set<Lease> renewed = new HashSet<>();
        for (int c = 0; c < chunks.size(); c++) {
            List<Object> answer = connection.await(answers.get(c), deadline, what);
            for (int i = 0; i < answer.size(); i++) {
                if ((Long) answer.get(i) == 1) {
                    renewed.add(chunks.get(c).get(i));
                }
            }
        }
        return renewed;
    }

    /** Runs a script of one key within the time given. */
    private <T> T run(
            String operation, String key, Script script, ScriptOutputType type, byte[][] args, long timeoutMillis) {
        connection.requireOpen();
        long deadline = StoreConnection.deadline(timeoutMillis);
        String what = operation + " of '" + abbreviate(key) + "'";
        RedisConnector.Connection open = connection.open(deadline, what);
        connected.run();
        return connection.await(evaluate(open, script, type, new byte[][] {recordKey(key)}, args), deadline, what);
    }

    /** Runs a script by its SHA, and by its text when the server does not know it (any more). */
    private static <T> CompletableFuture<T> evaluate(
            RedisConnector.Connection connection, Script script, ScriptOutputType type, byte[][] keys, byte[][] args) {
        RedisClusterAsyncCommands<byte[], byte[]> commands = connection.commands();
        return commands.<T>evalsha(script.sha(), type, keys, args)
                .toCompletableFuture()
                .exceptionallyCompose(failure -> StoreConnection.unwrap(failure) instanceof RedisNoScriptException
                        ? commands.<T>eval(script.source(), type, keys, args).toCompletableFuture()
                        : CompletableFuture.failedFuture(StoreConnection.unwrap(failure)));
    }

    /** The key's Redis key: the prefix, then the key in UTF-8 (exact: the key is valid UTF-16). */
    private byte[] recordKey(String key) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(prefix, prefix.length + utf8.length);
        System.arraycopy(utf8, 0, out, prefix.length, utf8.length);
        return out;
    }

    private static byte[] ascii(String value) {
        return value.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] number(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    private static String abbreviate(String key) {
        return key.length() <= 60 ? key : key.substring(0, 60) + "...";
    }
}
