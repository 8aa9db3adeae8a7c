package dev.baton.redis.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The store's Lua scripts: each operation is one of them, run atomically by Redis on its own clock.
 *
 * <p>A key's record is one hash, so every script but {@link #RENEW_ALL} touches exactly one key (and
 * {@code RENEW_ALL} is only ever called with keys of one cluster slot). Its fields:
 * <ul>
 * <li>{@code o}, {@code e}: the owner and the lease's end (microseconds of Redis {@code TIME}); the lock
 * is live while {@code e} is ahead of {@code TIME};</li>
 * <li>{@code t}: the last fencing token drawn for the key;</li>
 * <li>{@code w}, {@code ws}, {@code wu}: the waiter holding the key's next turn, when it began to wait,
 * and until when the turn is kept.</li>
 * </ul>
 * Expiry is decided by comparing those times with {@code TIME}; the key's own {@code PEXPIRE} only
 * removes a record once nothing in it is live any more, {@value #KEEP_AFTER_MILLIS} ms later (so the
 * last token outlives a release for a while: see docs/internals.md for why that matters).
 *
 * <p>A token is {@code max(t + 1, TIME in microseconds)}: it grows with every acquisition of the key,
 * and it never goes back even when the record is gone (expired, or Redis restarted empty or failed
 * over to a replica that missed it), as long as the server clock does not go back.
 *
 * <p>Numbers go through Lua as doubles: exact up to 2^53, which microseconds since 1970 stay below until
 * the year 2255. They are written back with {@code %.0f}, never {@code tostring} (which would round
 * them to 14 digits).
 */
public final class Scripts {

    /** How long a record outlives the last live thing in it (lock or turn), in milliseconds. */
    public static final long KEEP_AFTER_MILLIS = 10_000;

    /**
     * One script: its source and the SHA-1 Redis knows it by.
     *
     * @param name what it does, for messages
     * @param source the Lua text
     * @param sha the hex SHA-1 of the source, as {@code SCRIPT LOAD} returns it
     */
    public record Script(String name, String source, String sha) {
        static Script of(String name, String body) {
            String source = PRELUDE + body;
            return new Script(name, source, sha1(source));
        }
    }

    // Shared by every script: Redis' clock, the record, and how long to keep it.
    private static final String PRELUDE = """
            if redis.replicate_commands then redis.replicate_commands() end
            local clock = redis.call('TIME')
            local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
            local function num(x) return string.format('%.0f', x) end
            local function live(until_) return until_ and tonumber(until_) > now end
            local function keep(key, lockEnd, turnEnd)
              local last = now
              if lockEnd and tonumber(lockEnd) > last then last = tonumber(lockEnd) end
              if turnEnd and tonumber(turnEnd) > last then last = tonumber(turnEnd) end
              redis.call('PEXPIREAT', key, num(math.ceil(last / 1000) + KEEP_AFTER_MILLIS))
            end
            """.replace("KEEP_AFTER_MILLIS", Long.toString(KEEP_AFTER_MILLIS));

    /**
     * KEYS[1] the record; ARGV owner, ttl ms, waiter ({@code ""} without a turn), waited ms, keep ms.
     * Returns {@code {1, token}} when taken, else {@code {0, remaining lease ms or -1, 1 if in turn}}.
     */
    public static final Script ACQUIRE = Script.of("acquire", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 't', 'w', 'ws', 'wu')
            local waiter = ARGV[3]
            local since = now - tonumber(ARGV[4]) * 1000
            local standing = r[4] and live(r[6])
            local mayClaim = waiter ~= '' and (not standing or r[4] == waiter or tonumber(r[5]) > since)
            if r[1] and live(r[2]) then
              local remaining = math.floor((tonumber(r[2]) - now) / 1000)
              if mayClaim then
                local turnEnd = now + tonumber(ARGV[5]) * 1000
                redis.call('HSET', k, 'w', waiter, 'ws', num(since), 'wu', num(turnEnd))
                keep(k, r[2], turnEnd)
                return {0, remaining, 1}
              end
              return {0, remaining, 0}
            end
            if standing and not mayClaim then
              return {0, -1, 0}
            end
            local token = now
            if r[3] and tonumber(r[3]) + 1 > token then token = tonumber(r[3]) + 1 end
            local lockEnd = now + tonumber(ARGV[2]) * 1000
            redis.call('HSET', k, 'o', ARGV[1], 'e', num(lockEnd), 't', num(token))
            redis.call('HDEL', k, 'w', 'ws', 'wu')
            keep(k, lockEnd, nil)
            return {1, token}
            """);

    /** KEYS[1] the record; ARGV owner, ttl ms. Returns 1 if renewed. */
    public static final Script RENEW = Script.of("renew", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 'wu')
            if r[1] == ARGV[1] and live(r[2]) then
              local lockEnd = now + tonumber(ARGV[2]) * 1000
              redis.call('HSET', k, 'e', num(lockEnd))
              keep(k, lockEnd, r[3])
              return 1
            end
            return 0
            """);

    /**
     * KEYS the records (one cluster slot); ARGV[1] ttl ms, ARGV[i + 1] the owner for KEYS[i]. Returns 1
     * or 0 per key, in order.
     */
    public static final Script RENEW_ALL = Script.of("renewAll", """
            local ttl = tonumber(ARGV[1]) * 1000
            local out = {}
            for i, k in ipairs(KEYS) do
              local r = redis.call('HMGET', k, 'o', 'e', 'wu')
              if r[1] == ARGV[i + 1] and live(r[2]) then
                local lockEnd = now + ttl
                redis.call('HSET', k, 'e', num(lockEnd))
                keep(k, lockEnd, r[3])
                out[i] = 1
              else
                out[i] = 0
              end
            end
            return out
            """);

    /** KEYS[1] the record; ARGV owner, release channel. Returns 1 if released (and published). */
    public static final Script RELEASE = Script.of("release", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 'wu')
            if r[1] == ARGV[1] and live(r[2]) then
              redis.call('HDEL', k, 'o', 'e')
              keep(k, nil, r[3])
              redis.call('PUBLISH', ARGV[2], k)
              return 1
            end
            return 0
            """);

    /**
     * KEYS[1] the record; ARGV waiter, release channel. Returns 1 if the waiter held the turn; a key left
     * free by it is announced like a release.
     */
    public static final Script LEAVE_TURN = Script.of("leaveTurn", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 'w', 'wu')
            if r[3] == ARGV[1] and live(r[4]) then
              redis.call('HDEL', k, 'w', 'ws', 'wu')
              if not (r[1] and live(r[2])) then
                redis.call('PUBLISH', ARGV[2], k)
              end
              return 1
            end
            return 0
            """);

    /**
     * KEYS[1] the record. Returns {@code {owner, token, remaining lease ms}} of a live lock (the token as
     * text: exact), else an empty list.
     */
    public static final Script INSPECT = Script.of("inspect", """
            local r = redis.call('HMGET', KEYS[1], 'o', 'e', 't')
            if r[1] and live(r[2]) then
              return {r[1], r[3], math.max(1, math.floor((tonumber(r[2]) - now) / 1000))}
            end
            return {}
            """);

    private Scripts() {}

    private static String sha1(String source) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every Java runtime", e);
        }
    }
}
