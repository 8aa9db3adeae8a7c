package dev.baton.mongodb.internal;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoServerException;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.UpdateOptions;
import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.bson.Document;

/**
 * The store's operations as updates of {@link LockDocuments}, each bounded by the time it is given, on the
 * {@link MongoConnection}.
 *
 * <p>An acquisition is a few compare-and-sets, tried in the order that is cheapest for the usual cases: a known key
 * that is free costs one update, a held one two round trips (an update that matches nothing, a read that tells the
 * holder's remaining lease). A key taken last in the server's current millisecond costs a third, the update that
 * takes it with the next token; a key without a document four and a millisecond (the upsert of its placeholder,
 * then the update that takes it in the next millisecond: see {@link LockDocuments}). Whatever the order, each take
 * is one atomic update whose filter says the key is free, so of any number of callers exactly one takes a free key;
 * a refusal writes nothing but, for a key without a document, its placeholder.
 */
public final class MongoLocks {

    /** A batch renewal sends at most this many leases per update. */
    public static final int RENEW_CHUNK = 500;

    /**
     * How often an acquisition looks again (after a lost race, a new document, a millisecond's tokens spent)
     * before it gives up, answering not acquired.
     */
    private static final int ATTEMPTS = 8;

    private static final FindOneAndUpdateOptions TAKE = new FindOneAndUpdateOptions()
            .returnDocument(ReturnDocument.AFTER)
            .projection(Projections.include(LockDocuments.BASE, LockDocuments.STEP));

    private final MongoConnection connection;

    /** @param connection the store's connection */
    public MongoLocks(MongoConnection connection) {
        this.connection = connection;
    }

    /**
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the lease
     * @param timeoutMillis how long the call may take
     * @return acquired with its token, or not acquired with the holder's remaining lease when known
     */
    public AcquireResult acquire(String key, String owner, long ttlMillis, long timeoutMillis) {
        return connection.call("acquire of '" + abbreviate(key) + "'", timeoutMillis, call -> {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                Document taken = call.collection()
                        .findOneAndUpdate(
                                LockDocuments.takeAtClockFilter(key),
                                LockDocuments.takeAtClock(owner, ttlMillis),
                                TAKE);
                if (taken != null) {
                    return AcquireResult.acquired(LockDocuments.token(taken));
                }
                Document state = read(call, key);
                if (state == null) {
                    // no document: a free one whose last token tops the server's current millisecond, taken above
                    // in the next one (another caller's placeholder, or lock, does as well)
                    createPlaceholder(call, key);
                    pause();
                    continue;
                }
                if (live(state)) {
                    return AcquireResult.notAcquired(remaining(state));
                }
                if (!Boolean.TRUE.equals(state.get("room"))) {
                    pause(); // the key's tokens of this millisecond are spent: the next one has more
                    continue;
                }
                // free, but taken last in the server's current millisecond: the next token
                taken = call.collection()
                        .findOneAndUpdate(
                                LockDocuments.takeNextFilter(key), LockDocuments.takeNext(owner, ttlMillis), TAKE);
                if (taken != null) {
                    return AcquireResult.acquired(LockDocuments.token(taken));
                }
            }
            return AcquireResult.notAcquired(); // others kept taking it between our looks
        });
    }

    /**
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the new lease
     * @param timeoutMillis how long the call may take
     * @return whether the owner's live lock was extended
     */
    public boolean renew(String key, String owner, long ttlMillis, long timeoutMillis) {
        return connection.call(
                "renewal of '" + abbreviate(key) + "'",
                timeoutMillis,
                call -> call.collection()
                                .updateOne(LockDocuments.heldFilter(key, owner), LockDocuments.renew(ttlMillis))
                                .getMatchedCount()
                        == 1);
    }

    /**
     * @param key the key
     * @param owner the owner
     * @param timeoutMillis how long the call may take
     * @return whether the owner's live lock is now gone
     */
    public boolean release(String key, String owner, long timeoutMillis) {
        return connection.call(
                "release of '" + abbreviate(key) + "'",
                timeoutMillis,
                call -> call.collection()
                                .updateOne(LockDocuments.heldFilter(key, owner), LockDocuments.release())
                                .getMatchedCount()
                        == 1);
    }

    /**
     * @param key the key
     * @param timeoutMillis how long the call may take
     * @return the live holder, if any
     */
    public Optional<Holder> inspect(String key, long timeoutMillis) {
        return connection.call("inspection of '" + abbreviate(key) + "'", timeoutMillis, call -> {
            Document state = read(call, key);
            if (state == null || !live(state) || state.getString(LockDocuments.OWNER) == null) {
                return Optional.empty();
            }
            return Optional.of(new Holder(
                    state.getString(LockDocuments.OWNER),
                    ((Number) state.get("token")).longValue(),
                    Math.max(1, remaining(state))));
        });
    }

    /**
     * Per chunk of at most {@value #RENEW_CHUNK} leases: one update of all the chunk's live locks whose owner is
     * the lease's, marking them with the batch's id, and one read of the documents so marked.
     *
     * @param leases the locks to renew
     * @param ttlMillis the new lease
     * @param timeoutMillis how long the whole call may take
     * @return the leases renewed
     */
    public Set<Lease> renewAll(List<Lease> leases, long ttlMillis, long timeoutMillis) {
        return connection.call("renewal of " + leases.size() + " leases", timeoutMillis, call -> {
            Set<Lease> renewed = new HashSet<>();
            for (int from = 0; from < leases.size(); from += RENEW_CHUNK) {
                List<Lease> chunk = leases.subList(from, Math.min(leases.size(), from + RENEW_CHUNK));
                String batch = UUID.randomUUID().toString();
                call.collection()
                        .updateMany(LockDocuments.heldFilter(chunk), LockDocuments.renewInBatch(ttlMillis, batch));
                Set<Lease> wanted = new HashSet<>(chunk);
                Set<String> keys = new HashSet<>();
                chunk.forEach(lease -> keys.add(lease.key()));
                List<Document> marked = call.collection()
                        .find(Filters.and(Filters.in("_id", keys), Filters.eq(LockDocuments.BATCH, batch)))
                        .projection(Projections.include(LockDocuments.OWNER))
                        .into(new ArrayList<>());
                for (Document document : marked) {
                    Lease lease = new Lease(document.getString("_id"), document.getString(LockDocuments.OWNER));
                    if (wanted.contains(lease)) {
                        renewed.add(lease);
                    }
                }
            }
            return renewed;
        });
    }

    /** The key's document as the server sees it now (owner, live, remaining, token), or null when there is none. */
    private static Document read(MongoConnection.Call call, String key) {
        return call.collection()
                .aggregate(List.of(
                        Aggregates.match(Filters.eq("_id", key)), Aggregates.project(LockDocuments.readProjection())))
                .first();
    }

    /** The upsert of a key without a document: a placeholder, unless another caller made the document first. */
    private static void createPlaceholder(MongoConnection.Call call, String key) {
        try {
            call.collection()
                    .updateOne(
                            LockDocuments.placeholderFilter(key),
                            LockDocuments.placeholder(),
                            new UpdateOptions().upsert(true));
        } catch (MongoServerException e) {
            if (ErrorCategory.fromErrorCode(e.getCode()) != ErrorCategory.DUPLICATE_KEY) {
                throw e;
            }
            // made by another caller meanwhile: a lost race, nothing to do
        }
    }

    /**
     * Waits a little over a millisecond, so that the server's clock has moved on when the caller looks again. The
     * client's clock only paces the retry: what the store does next is decided by the server's.
     */
    private static void pause() {
        try {
            Thread.sleep(1, 100_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException("interrupted while acquiring a lock", e);
        }
    }

    private static boolean live(Document state) {
        return Boolean.TRUE.equals(state.get("live")) && state.get(LockDocuments.OWNER) != null;
    }

    private static long remaining(Document state) {
        Object remaining = state.get("remaining");
        return remaining instanceof Number number ? Math.max(0, number.longValue()) : 0;
    }

    private static String abbreviate(String key) {
        String shown = key.replace("\0", "\\u0000");
        return shown.length() <= 60 ? shown : shown.substring(0, 60) + "...";
    }
}
