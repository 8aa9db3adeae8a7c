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
 * <li>{@code t}: the last fencing token drawn for the key, exclusive or shared;</li>
 * <li>{@code w}, {@code ws}, {@code wu}: the waiter holding the key's next turn, when it began to wait,
 * and until when the turn is kept;</li>
 * <li>while shared leases hold the key ({@code o} is then the empty string, which no owner token can be):
 * {@code s:<owner>}, one field per shared lease, {@code <end>:<token>}; {@code n}, how many such fields there
 * are; {@code e}, the latest of their ends; {@code m}, no later than the earliest of them.</li>
 * </ul>
 * Expiry is decided by comparing those times with {@code TIME}; the key's own {@code PEXPIRE} only
 * removes a record once nothing in it is live any more, {@value #KEEP_AFTER_MILLIS} ms later (so the
 * last token outlives a release for a while: see docs/internals.md for why that matters).
 *
 * <p><b>Shared leases without a cost for exclusive locks.</b> Because a shared key's {@code o} is set and its
 * {@code e} is the end of its longest lease, the exclusive scripts read the same fields as before shared leases
 * existed: to {@link #ACQUIRE} the key is simply held until the last shared lease ends (and that lease's end is
 * the remaining lease it answers), and an owner token never equals the empty {@code o}, so {@link #RENEW} and
 * {@link #RELEASE} reach their shared branch only after the exclusive compare-and-set failed. The shared scripts
 * keep {@code e} exact: when the lease with the latest end is released or shortened, they look for the new latest.
 *
 * <p><b>Ended shared leases</b> count for nothing and do not pile up: while {@code m} is ahead of {@code TIME}
 * every shared lease of the key is live and {@code n} counts them; once it is not, the next
 * {@link #ACQUIRE_SHARED} drops the ended fields and recounts ({@code trim}). An exclusive acquisition of a key
 * whose shared leases all ended drops them with the record; and a record whose leases all ended goes by itself,
 * {@value #KEEP_AFTER_MILLIS} ms after the latest end, like any other.
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
            String source = PRELUDE + body.replace("SHARED_LEASES", SHARED_LEASES);
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
            -- takes the key's exclusive lock for owner, clears its turn; the token is above the record's last
            local function take(key, owner, ttlMillis, lastToken)
              local token = now
              if lastToken and tonumber(lastToken) + 1 > token then token = tonumber(lastToken) + 1 end
              local lockEnd = now + tonumber(ttlMillis) * 1000
              redis.call('HSET', key, 'o', owner, 'e', num(lockEnd), 't', num(token))
              redis.call('HDEL', key, 'w', 'ws', 'wu')
              keep(key, lockEnd, nil)
              return token
            end
            """.replace("KEEP_AFTER_MILLIS", Long.toString(KEEP_AFTER_MILLIS));

    /**
     * The shared leases' Lua functions, as one Lua expression (a table of functions) that a script evaluates only
     * where it meets a shared lease, so that the exclusive paths do not even create them. A lease's field is
     * {@code s:<owner>}, its value {@code <end>:<token>}.
     * <ul>
     * <li>{@code trim(k)}: drops the ended leases, writes the exact {@code n}, {@code m} and {@code e} of the
     * others (or ends the shared mode when none is left); returns their count, earliest and latest end;</li>
     * <li>{@code renew(k, owner, ttl µs, e, wu)}, {@code release(k, owner, e, wu)}: 1 if the owner's live lease
     * was renewed or released, else 0, changing nothing;</li>
     * <li>{@code holder(k)}: {@code {owner, token, remaining ms}} of the live lease with the greatest token, or
     * an empty list.</li>
     * </ul>
     */
    private static final String SHARED_LEASES = """
            (function()
              local function parse(value)
                local colon = string.find(value, ':', 1, true)
                return tonumber(string.sub(value, 1, colon - 1)), string.sub(value, colon + 1)
              end
              local function trim(k)
                local all = redis.call('HGETALL', k)
                local ended, count, earliest, latest = {}, 0, nil, nil
                for i = 1, #all, 2 do
                  if string.sub(all[i], 1, 2) == 's:' then
                    local leaseEnd = parse(all[i + 1])
                    if leaseEnd > now then
                      count = count + 1
                      if not earliest or leaseEnd < earliest then earliest = leaseEnd end
                      if not latest or leaseEnd > latest then latest = leaseEnd end
                    else
                      ended[#ended + 1] = all[i]
                    end
                  end
                end
                -- unpack() is bounded by Lua's stack: at most 1000 fields per HDEL
                for i = 1, #ended, 1000 do
                  redis.call('HDEL', k, unpack(ended, i, math.min(i + 999, #ended)))
                end
                if count == 0 then
                  redis.call('HDEL', k, 'o', 'e', 'n', 'm')
                else
                  redis.call('HSET', k, 'n', num(count), 'm', num(earliest), 'e', num(latest))
                end
                return count, earliest, latest
              end
              local function renew(k, owner, ttl, latest, turnEnd)
                local field = 's:' .. owner
                local r = redis.call('HMGET', k, field, 'm')
                if not r[1] then return 0 end
                local leaseEnd, token = parse(r[1])
                if leaseEnd <= now then return 0 end
                local newEnd = now + ttl
                redis.call('HSET', k, field, num(newEnd) .. ':' .. token)
                if newEnd < tonumber(r[2]) then redis.call('HSET', k, 'm', num(newEnd)) end
                latest = tonumber(latest)
                if newEnd >= latest then
                  latest = newEnd
                  redis.call('HSET', k, 'e', num(latest))
                elseif leaseEnd == latest then
                  -- the lease that ended last was shortened: the key's end is now another lease's
                  local _, _, last = trim(k)
                  latest = last
                end
                keep(k, latest, turnEnd)
                return 1
              end
              local function release(k, owner, latest, turnEnd)
                local field = 's:' .. owner
                local r = redis.call('HMGET', k, field, 'n')
                if not r[1] then return 0 end
                local leaseEnd = parse(r[1])
                if leaseEnd <= now then return 0 end
                redis.call('HDEL', k, field)
                local left = tonumber(r[2]) - 1
                if left == 0 then
                  redis.call('HDEL', k, 'o', 'e', 'n', 'm')
                  keep(k, nil, turnEnd)
                else
                  redis.call('HSET', k, 'n', num(left))
                  if leaseEnd == tonumber(latest) then
                    local _, _, last = trim(k)
                    keep(k, last, turnEnd)
                  end
                end
                return 1
              end
              local function holder(k)
                local all = redis.call('HGETALL', k)
                local owner, token, leaseEnd
                for i = 1, #all, 2 do
                  if string.sub(all[i], 1, 2) == 's:' then
                    local e, t = parse(all[i + 1])
                    if e > now and (not token or tonumber(t) > tonumber(token)) then
                      owner, token, leaseEnd = string.sub(all[i], 3), t, e
                    end
                  end
                end
                if not owner then return {} end
                return {owner, token, math.max(1, math.floor((leaseEnd - now) / 1000))}
              end
              return {trim = trim, parse = parse, renew = renew, release = release, holder = holder}
            end)()""";

    /**
     * KEYS[1] the record; ARGV owner, ttl ms, waiter ({@code ""} without a turn), waited ms, keep ms.
     * Returns {@code {1, token}} when taken, else {@code {0, remaining lease ms or -1, 1 if in turn}}. An
     * exclusive acquisition: a key held by shared leases is held until the longest of them ends ({@code e}).
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
            if r[1] == '' then
              -- shared leases that all ended: gone with the record (the token and the lock are written below)
              redis.call('DEL', k)
            end
            return {1, take(k, ARGV[1], ARGV[2], r[3])}
            """);

    /**
     * KEYS[1] the record; ARGV owner, ttl ms, waiter ({@code ""} without a turn), waited ms, keep ms, the shared
     * limit (1 to {@link Integer#MAX_VALUE}). Answers as {@link #ACQUIRE}. Takes a shared lease while no live
     * exclusive lock and fewer than the limit of live shared leases hold the key; refused by a live exclusive
     * lock it answers that lock's remaining lease, refused by a full key the shortest remaining shared lease.
     * An owner that already holds a live shared lease of the key is refused, changing nothing, as an exclusive
     * holder's second acquisition is.
     */
    public static final Script ACQUIRE_SHARED = Script.of("acquireShared", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 't', 'w', 'ws', 'wu', 'n', 'm')
            local waiter = ARGV[3]
            local since = now - tonumber(ARGV[4]) * 1000
            local limit = tonumber(ARGV[6])
            local standing = r[4] and live(r[6])
            local mayClaim = waiter ~= '' and (not standing or r[4] == waiter or tonumber(r[5]) > since)
            local function refuse(remaining, lastEnd)
              if mayClaim then
                local turnEnd = now + tonumber(ARGV[5]) * 1000
                redis.call('HSET', k, 'w', waiter, 'ws', num(since), 'wu', num(turnEnd))
                keep(k, lastEnd, turnEnd)
                return {0, remaining, 1}
              end
              return {0, remaining, 0}
            end
            if r[1] and r[1] ~= '' and live(r[2]) then
              return refuse(math.floor((tonumber(r[2]) - now) / 1000), r[2])
            end
            local shared = SHARED_LEASES
            local count, earliest, latest = 0, nil, nil
            if r[1] == '' then
              count, earliest, latest = tonumber(r[7]) or 0, tonumber(r[8]) or 0, tonumber(r[2]) or 0
              if earliest <= now or count >= limit then
                -- a lease may have ended; or the key looks full, and the answer is the exact earliest end
                count, earliest, latest = shared.trim(k)
              end
            end
            if count >= limit then
              return refuse(math.floor((earliest - now) / 1000), latest)
            end
            if standing and not mayClaim then
              return {0, -1, 0}
            end
            local field = 's:' .. ARGV[1]
            if count > 0 then
              local mine = redis.call('HMGET', k, field)[1]
              if mine then
                return {0, math.floor((shared.parse(mine) - now) / 1000), 0}
              end
            end
            local token = now
            if r[3] and tonumber(r[3]) + 1 > token then token = tonumber(r[3]) + 1 end
            local leaseEnd = now + tonumber(ARGV[2]) * 1000
            if count == 0 or leaseEnd < earliest then earliest = leaseEnd end
            if count == 0 or leaseEnd > latest then latest = leaseEnd end
            redis.call('HSET', k, 'o', '', 'e', num(latest), 't', num(token), 'n', num(count + 1),
              'm', num(earliest), field, num(leaseEnd) .. ':' .. num(token))
            redis.call('HDEL', k, 'w', 'ws', 'wu')
            keep(k, latest, nil)
            return {1, token}
            """);

    /** KEYS[1] the record; ARGV owner, ttl ms. Returns 1 if renewed: the exclusive lock, or a shared lease. */
    public static final Script RENEW = Script.of("renew", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 'wu')
            if r[1] == ARGV[1] and live(r[2]) then
              local lockEnd = now + tonumber(ARGV[2]) * 1000
              redis.call('HSET', k, 'e', num(lockEnd))
              keep(k, lockEnd, r[3])
              return 1
            end
            if r[1] == '' and live(r[2]) then
              return SHARED_LEASES.renew(k, ARGV[1], tonumber(ARGV[2]) * 1000, r[2], r[3])
            end
            return 0
            """);

    /**
     * KEYS the records (one cluster slot); ARGV[1] ttl ms, ARGV[i + 1] the owner for KEYS[i]. Returns 1
     * or 0 per key, in order. A key may come more than once, with the owners of several shared leases.
     */
    public static final Script RENEW_ALL = Script.of("renewAll", """
            local ttl = tonumber(ARGV[1]) * 1000
            local out = {}
            local shared
            for i, k in ipairs(KEYS) do
              local r = redis.call('HMGET', k, 'o', 'e', 'wu')
              if r[1] == ARGV[i + 1] and live(r[2]) then
                local lockEnd = now + ttl
                redis.call('HSET', k, 'e', num(lockEnd))
                keep(k, lockEnd, r[3])
                out[i] = 1
              elseif r[1] == '' and live(r[2]) then
                shared = shared or SHARED_LEASES
                out[i] = shared.renew(k, ARGV[i + 1], ttl, r[2], r[3])
              else
                out[i] = 0
              end
            end
            return out
            """);

    /**
     * KEYS[1] the record; ARGV owner, release channel. Returns 1 if released (and published): the exclusive lock,
     * or a shared lease.
     */
    public static final Script RELEASE = Script.of("release", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 'wu')
            if r[1] == ARGV[1] and live(r[2]) then
              redis.call('HDEL', k, 'o', 'e')
              keep(k, nil, r[3])
              redis.call('PUBLISH', ARGV[2], k)
              return 1
            end
            if r[1] == '' and live(r[2]) and SHARED_LEASES.release(k, ARGV[1], r[2], r[3]) == 1 then
              redis.call('PUBLISH', ARGV[2], k)
              return 1
            end
            return 0
            """);

    /**
     * KEYS[1] the record; ARGV owner, next owner, next owner's ttl ms, release channel. The owner's live exclusive
     * lock goes to the next owner with a new token, as {@link #ACQUIRE} would take the freed key without a turn,
     * unless a live turn keeps the key: then it is only released, and published as {@link #RELEASE} does. Returns
     * {@code {1, token}} when handed over, {@code {0, 1}} when only released, {@code {0, 0}} when the owner held no
     * live exclusive lock (nothing changed).
     */
    public static final Script HAND_OVER = Script.of("handOver", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 't', 'w', 'wu')
            if r[1] ~= ARGV[1] or not live(r[2]) then
              return {0, 0}
            end
            if r[4] and live(r[5]) then
              redis.call('HDEL', k, 'o', 'e')
              keep(k, nil, r[5])
              redis.call('PUBLISH', ARGV[4], k)
              return {0, 1}
            end
            return {1, take(k, ARGV[2], ARGV[3], r[3])}
            """);

    /**
     * KEYS[1] the record; ARGV waiter, release channel. Returns 1 if the waiter held the turn; a key left
     * without an exclusive lock by it (free, or with room for shared leases) is announced like a release.
     */
    public static final Script LEAVE_TURN = Script.of("leaveTurn", """
            local k = KEYS[1]
            local r = redis.call('HMGET', k, 'o', 'e', 'w', 'wu')
            if r[3] == ARGV[1] and live(r[4]) then
              redis.call('HDEL', k, 'w', 'ws', 'wu')
              if not (r[1] and r[1] ~= '' and live(r[2])) then
                redis.call('PUBLISH', ARGV[2], k)
              end
              return 1
            end
            return 0
            """);

    /**
     * KEYS[1] the record. Returns {@code {owner, token, remaining lease ms}} of a live exclusive lock, or of the
     * live shared lease with the greatest token (the token as text: exact), else an empty list.
     */
    public static final Script INSPECT = Script.of("inspect", """
            local r = redis.call('HMGET', KEYS[1], 'o', 'e', 't')
            if r[1] == '' then
              if live(r[2]) then return SHARED_LEASES.holder(KEYS[1]) end
              return {}
            end
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
