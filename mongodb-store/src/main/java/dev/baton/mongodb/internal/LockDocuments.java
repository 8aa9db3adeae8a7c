package dev.baton.mongodb.internal;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The layout of a key's document and the filters and updates that change it: every change is one single-document
 * atomic update (a compare-and-set whose condition is its filter), and every time in it is the server's.
 *
 * <h2>The document</h2>
 * One document per key, {@code _id} the key itself (a string, exactly as given, {@code U+0000} included):
 * <ul>
 * <li>{@code o}: the owner of the lock; absent while the key is free (never taken, or released);</li>
 * <li>{@code s}, {@code l}: the lease's start (a date, written by the server with {@code $currentDate}) and length
 * in milliseconds. The lock is live while {@code s + l} is after the server's {@code $$NOW}: the client's clock is
 * never read;</li>
 * <li>{@code a}, {@code u}: the fencing token's base (a date, written by the server) and step; the token is
 * {@code a × 1000 + u} (see below);</li>
 * <li>{@code g} or {@code h}: when the record may start to age (a date, written by the server), the field of a TTL
 * index: {@code g} (deleted {@value #KEEP_SHORT_SECONDS} s later) for leases of at most
 * {@value #SHORT_LEASE_MILLIS} ms and released keys, {@code h} (deleted {@value #KEEP_LONG_SECONDS} s later) for
 * longer leases. Either way a document goes at least a day after its lock's lease ended;</li>
 * <li>{@code r}: the id of the last batch renewal that renewed the lock.</li>
 * </ul>
 *
 * <h2>Why no update pipelines</h2>
 * With an update pipeline ({@code [{$set: ...}]}, MongoDB 4.2+) one upsert could compute the lease's end and the
 * token from {@code $$NOW}. The in-process server the tests run on (mongo-java-server) does not accept update
 * pipelines, and MongoDB does not accept {@code $expr} in the filter of an upsert. So the store uses classic update
 * operators only: the server's clock enters the document through {@code $currentDate} and the filters compare it
 * with {@code $$NOW} in {@code $expr}; the only upsert ({@link #placeholderFilter}) has no {@code $expr}.
 *
 * <h2>The fencing token</h2>
 * The rule is the Redis store's, in milliseconds: a token is {@code max(last token of the key + 1, server clock in
 * ms × 1000)}, with one more bound: a token drawn in the server's millisecond {@code T} is at most
 * {@code T × 1000 + 999} (a key is taken at most a thousand times in one millisecond; a caller that would need more
 * waits for the next one). Classic operators cannot compute a maximum, so the sides are separate updates, each chosen
 * by its filter and atomic:
 * <ul>
 * <li>{@link #takeAtClockFilter} with {@link #takeAtClock}: the key is free (or expired) <em>and</em> its last token
 * is below {@code $$NOW × 1000}: the update sets {@code a} to the server's current date and {@code u} to 0, so the
 * token is the clock's, above the last one;</li>
 * <li>{@link #takeNextFilter} with {@link #takeNext}: the key is free (or expired) and its last token is below
 * {@code $$NOW × 1000 + 999}: the update adds 1 to {@code u}, so the token is the last one + 1, still within the
 * millisecond's thousand (used when the key was last taken in the server's current millisecond);</li>
 * <li>{@link #placeholderFilter} with {@link #placeholder}: there is no document (never taken, or deleted by the TTL
 * index or by hand): the upsert creates a free one whose last token is the top of the server's current
 * millisecond, {@code a} now and {@code u} 999. It takes no lock: the caller then takes the key as above, in a later
 * millisecond.</li>
 * </ul>
 * Within one document the filters make the tokens grow. Across a deleted document they grow too: every token of the
 * deleted one was drawn before it was deleted, so in a millisecond no later than the placeholder's, and is therefore
 * at most the placeholder's last token, which every later token exceeds. This holds however fast documents are
 * deleted and made again; it needs only a server clock that is not set back.
 */
public final class LockDocuments {

    /** The owner field. */
    public static final String OWNER = "o";
    /** The lease's start. */
    public static final String START = "s";
    /** The lease's length in ms. */
    public static final String LEASE = "l";
    /** The token's base. */
    public static final String BASE = "a";
    /** The token's step. */
    public static final String STEP = "u";
    /** When a record of a short lease or a released key starts to age. */
    public static final String KEEP_SHORT = "g";
    /** When a record of a long lease starts to age. */
    public static final String KEEP_LONG = "h";
    /** The last batch renewal. */
    public static final String BATCH = "r";

    /** The longest lease whose record ages from {@link #KEEP_SHORT}: one hour. */
    public static final long SHORT_LEASE_MILLIS = 3_600_000L;
    /** How long after {@link #KEEP_SHORT} the TTL index deletes a record: one day. */
    public static final long KEEP_SHORT_SECONDS = 86_400L;
    /** How long after {@link #KEEP_LONG} the TTL index deletes a record: the longest lease and a day. */
    public static final long KEEP_LONG_SECONDS = 366L * 86_400L;
    /** The name of the TTL index on {@link #KEEP_SHORT}. */
    public static final String KEEP_SHORT_INDEX = "baton_keep_short";
    /** The name of the TTL index on {@link #KEEP_LONG}. */
    public static final String KEEP_LONG_INDEX = "baton_keep_long";

    private static final String NOW = "$$NOW";
    /** {@code s + l}: the lease's end, a date. */
    private static final Document LEASE_END = new Document("$add", List.of("$" + START, "$" + LEASE));
    /** The lock is live: its lease ends after the server's now. A missing lease is not live. */
    private static final Document LIVE = new Document("$gt", List.of(LEASE_END, NOW));
    /** The lease is over (or missing). */
    private static final Document OVER = new Document("$lte", List.of(LEASE_END, NOW));
    /** The last token, {@code a × 1000 + u}. */
    private static final Document TOKEN = new Document(
            "$add",
            List.of(new Document("$multiply", List.of(new Document("$toLong", "$" + BASE), 1000L)), "$" + STEP));
    /** The greatest step of a token in its millisecond. */
    private static final long TOP_STEP = 999L;
    /** The server's clock in ms × 1000. */
    private static final Document NOW_TOKEN = new Document("$multiply", List.of(new Document("$toLong", NOW), 1000L));
    /** The last token + 1 is still within the server's current millisecond's thousand. */
    private static final Document ROOM =
            new Document("$lt", List.of(TOKEN, new Document("$add", List.of(NOW_TOKEN, TOP_STEP))));
    /** The last token is below the server's clock in ms × 1000 (a missing one too). */
    private static final Document BEHIND_CLOCK = new Document("$lt", List.of(TOKEN, NOW_TOKEN));

    private LockDocuments() {}

    /**
     * @param key the key
     * @return the key is free or its lock's lease is over, and its last token is behind the server's clock
     */
    public static Bson takeAtClockFilter(String key) {
        return Filters.and(Filters.eq("_id", key), free(), Filters.expr(BEHIND_CLOCK));
    }

    /**
     * @param key the key
     * @return the key is free or its lock's lease is over
     */
    public static Bson freeFilter(String key) {
        return Filters.and(Filters.eq("_id", key), free());
    }

    /**
     * @param key the key
     * @return the key is free or its lock's lease is over, and a token is left in the server's current millisecond
     */
    public static Bson takeNextFilter(String key) {
        return Filters.and(Filters.eq("_id", key), free(), Filters.expr(ROOM));
    }

    /**
     * The filter of the only upsert: it matches no document the store wrote (they all have a token base), so the
     * upsert inserts the key's document, or fails with a duplicate key error when one exists (just created by
     * another caller: a lost race). No {@code $expr}: MongoDB refuses it in an upsert's filter.
     *
     * @param key the key
     * @return the filter
     */
    public static Bson placeholderFilter(String key) {
        return Filters.and(Filters.eq("_id", key), Filters.exists(BASE, false), Filters.exists(OWNER, false));
    }

    /**
     * @param key the key
     * @param owner the owner
     * @return the owner holds the key's live lock
     */
    public static Bson heldFilter(String key, String owner) {
        return Filters.and(Filters.eq("_id", key), Filters.eq(OWNER, owner), Filters.expr(LIVE));
    }

    /**
     * @param leases the keys and their owners
     * @return each owner holds its key's live lock
     */
    public static Bson heldFilter(List<dev.baton.spi.Lease> leases) {
        List<Bson> pairs = new ArrayList<>(leases.size());
        for (dev.baton.spi.Lease lease : leases) {
            pairs.add(Filters.and(Filters.eq("_id", lease.key()), Filters.eq(OWNER, lease.owner())));
        }
        return Filters.and(Filters.or(pairs), Filters.expr(LIVE));
    }

    /**
     * A free document whose last token is the top of the server's current millisecond: {@code a} now, {@code u}
     * 999. Ages from now on the short index, so one never taken goes a day later.
     *
     * @return the update
     */
    public static Bson placeholder() {
        return Updates.combine(Updates.set(STEP, TOP_STEP), Updates.currentDate(BASE), Updates.currentDate(KEEP_SHORT));
    }

    /**
     * Takes the key with a token at the server's clock: {@code a} now, {@code u} 0.
     *
     * @param owner the owner
     * @param ttlMillis the lease
     * @return the update
     */
    public static Bson takeAtClock(String owner, long ttlMillis) {
        return Updates.combine(
                Updates.set(OWNER, owner),
                Updates.set(LEASE, ttlMillis),
                Updates.set(STEP, 0L),
                Updates.currentDate(BASE),
                Updates.currentDate(START),
                Updates.currentDate(keepField(ttlMillis)),
                Updates.unset(otherKeepField(ttlMillis)));
    }

    /**
     * Takes the key with the token after the last one: {@code u + 1}.
     *
     * @param owner the owner
     * @param ttlMillis the lease
     * @return the update
     */
    public static Bson takeNext(String owner, long ttlMillis) {
        return Updates.combine(
                Updates.set(OWNER, owner),
                Updates.set(LEASE, ttlMillis),
                Updates.inc(STEP, 1L),
                Updates.currentDate(START),
                Updates.currentDate(keepField(ttlMillis)),
                Updates.unset(otherKeepField(ttlMillis)));
    }

    /**
     * @param ttlMillis the new lease, from the server's now
     * @return the update
     */
    public static Bson renew(long ttlMillis) {
        return Updates.combine(
                Updates.set(LEASE, ttlMillis),
                Updates.currentDate(START),
                Updates.currentDate(keepField(ttlMillis)),
                Updates.unset(otherKeepField(ttlMillis)));
    }

    /**
     * @param ttlMillis the new lease, from the server's now
     * @param batch the batch renewal's id
     * @return the update
     */
    public static Bson renewInBatch(long ttlMillis, String batch) {
        return Updates.combine(renew(ttlMillis), Updates.set(BATCH, batch));
    }

    /**
     * Frees the key; the token's fields stay, and the record ages from now.
     *
     * @return the update
     */
    public static Bson release() {
        return Updates.combine(Updates.unset(OWNER), Updates.unset(KEEP_LONG), Updates.currentDate(KEEP_SHORT));
    }

    /**
     * The projection of a read: the owner, whether its lock is live, its remaining lease in ms, the last token and
     * whether a token is left in the current millisecond, all by the server's clock.
     *
     * @return the {@code $project} stage's document
     */
    public static Document readProjection() {
        return new Document("_id", 0)
                .append(OWNER, 1)
                .append("live", LIVE)
                .append("remaining", new Document("$subtract", List.of(LEASE_END, NOW)))
                .append("token", TOKEN)
                .append("room", ROOM);
    }

    /**
     * @param taken a document as an acquisition left it (its {@code a} and {@code u} at least)
     * @return its token
     */
    public static long token(Document taken) {
        Date base = taken.getDate(BASE);
        Object step = taken.get(STEP);
        return Math.addExact(
                Math.multiplyExact(base.getTime(), 1000L), step == null ? 0L : ((Number) step).longValue());
    }

    private static Bson free() {
        return Filters.or(Filters.exists(OWNER, false), Filters.expr(OVER));
    }

    private static String keepField(long ttlMillis) {
        return ttlMillis <= SHORT_LEASE_MILLIS ? KEEP_SHORT : KEEP_LONG;
    }

    private static String otherKeepField(long ttlMillis) {
        return ttlMillis <= SHORT_LEASE_MILLIS ? KEEP_LONG : KEEP_SHORT;
    }
}
