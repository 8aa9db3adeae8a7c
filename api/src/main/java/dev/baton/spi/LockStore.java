package dev.baton.spi;

import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Where locks live: the contract a store implements. The runtime owns waiting, renewal and events;
 * a store owns three atomic operations on records of {@code (key, owner, fencing token, expiry)}.
 *
 * <h2>Rules</h2>
 * <ul>
 * <li>An expired lock does not exist, for every operation, whether or not it was deleted.</li>
 * <li>The store measures time with its own clock (the database's, Redis', {@code System.nanoTime()}
 * in memory), so instances with skewed clocks agree on expiry.</li>
 * <li><b>Fencing tokens</b>: each successful {@link #acquire} of a key returns a positive token
 * greater than every token this store (this backend, for persistent stores) ever returned for that
 * key, across release, expiry and restart. A store-wide sequence is the simple way.</li>
 * <li>Keys are compared exactly: {@code k}/{@code K}, {@code a}/{@code a }, NFC and NFD forms are
 * different keys.</li>
 * <li><b>Arguments are checked before a store sees them</b>: the requests ({@link Acquisition},
 * {@link Renewal}, {@link Lease}) check themselves when they are built, and the runtime checks the key and
 * owner of {@link #release}, {@link #leaveTurn} and {@link #inspect} with {@link LockArguments}. Keys are 1 to
 * {@value LockArguments#MAX_KEY_LENGTH} UTF-16 chars of valid UTF-16, without {@code U+0000} unless the store
 * declares {@link StoreCapability#NUL_IN_KEYS}; owners 1 to {@value LockArguments#MAX_OWNER_LENGTH} printable
 * ASCII chars; ttls whole milliseconds from 1 to {@value LockArguments#MAX_DURATION_MILLIS}. A store does
 * not check them again.</li>
 * <li>Calls arrive concurrently, from many threads and processes.</li>
 * <li>A failure of the backend is a {@link dev.baton.LockStoreException} with the cause. A store
 * connects lazily, at its first operation, and recovers by itself once the backend is back.</li>
 * <li><b>Bounded calls</b>: the runtime gives each call the time it may take ({@code maxWaitMillis}:
 * what is left of the caller's acquisition timeout, of the lease for a renewal). A store bounds its
 * waits by it: on a row or key lock held by another transaction, and on a backend that does not
 * answer. An acquisition that runs out of time waiting for someone else's lock answers
 * {@linkplain AcquireResult#notAcquired() not acquired}; a backend that does not answer in time is a
 * {@link dev.baton.LockStoreException}. A request without a bound ({@link LockArguments#STORE_BOUND}) gets
 * the store's own; a store that cannot bound its calls ignores the bound.</li>
 * </ul>
 * <h2>Shared leases</h2>
 * A store that declares {@link StoreCapability#SHARED_LOCKS} keeps, per key, either one exclusive lease or up to
 * a limit of shared ones ({@link Acquisition#sharedLimit()}): "free" below then reads "has room for the
 * request" (no live lease for an exclusive request; no live exclusive lease and fewer live shared leases than its
 * limit for a shared one), and "the holder" reads "the lease of this owner". Other stores are never given a
 * shared acquisition: the runtime refuses it first.
 * Verify a store with the contract suite in {@code baton-tck} ({@code dev.baton.tck.LockStoreContract}).
 */
public interface LockStore extends AutoCloseable {

    /**
     * Takes the request's key for its owner, expiring {@code ttlMillis} from now by the store's clock, if no
     * live lock holds it (none, released, or expired), drawing a fencing token greater than every earlier one
     * for the key. Otherwise changes nothing, also when the owner itself holds it.
     * <p><b>One atomic operation</b>: of any number of concurrent callers for a free or expired key, exactly
     * one wins. The token is drawn in the same operation, after the check.
     * <p><b>Bounded</b>: a lock of another transaction on the key's record is waited for no longer than
     * {@link Acquisition#maxWaitMillis()} (then: not acquired), and a backend that does not answer in time
     * fails the call; {@code 0} means do not wait for anyone else's lock at all ({@code tryAcquire}).
     * <p><b>Turns</b> (stores that declare {@link StoreCapability#WAITING_TURNS}; others ignore
     * {@link Acquisition#turn()}): with a turn, in the same atomic operation,
     * <ul>
     * <li>if the key is free and its turn is free, expired, the turn's waiter's own, or held by a waiter that
     * has waited less long than this one: takes the key and clears the turn;</li>
     * <li>otherwise changes no lock, and takes the key's turn for the request's waiter if the turn is free,
     * expired, its own, or held by a waiter that has waited less long (by the start times the store derives
     * from {@link Turn#waitedMillis()} on its own clock; on a tie the holder keeps it), keeping it
     * {@link Turn#keepMillis()} from now; answers {@link AcquireResult#nextInTurn} when the caller holds the
     * turn, {@link AcquireResult#notAcquired} when another waiter does.</li>
     * </ul>
     * Without a turn, such a store refuses a free key whose live turn belongs to a waiter.
     *
     * @param acquisition what to take, for whom, for how long, within which bound
     * <p><b>Remaining lease</b> (stores that declare {@link StoreCapability#REMAINING_LEASE}): not acquired, the
     * answer says how long until the key would have room if no holder renewed: the exclusive holder's remaining
     * lease; for an exclusive request refused by shared leases, the longest of theirs; for a shared request
     * refused by a full key, the shortest.
     *
     * @return acquired with its token, next in turn, or not acquired (with the holder's remaining lease if
     *     known)
     * @throws dev.baton.LockStoreException if the backend failed or did not answer in time
     */
    AcquireResult acquire(Acquisition acquisition);

    /**
     * Gives up the key's turn if {@code waiter} holds it, so the next waiter need not wait for it to
     * expire: the runtime calls it when a waiting acquisition stops waiting without the key (timeout,
     * interrupt, shutdown). The default does nothing.
     *
     * @param key the key
     * @param waiter the waiter of the {@link Turn}
     * @return true if the waiter held the key's turn and it is now free
     * @throws dev.baton.LockStoreException if the backend failed
     */
    default boolean leaveTurn(String key, String waiter) {
        return false;
    }

    /**
     * Sets the owner's live lock on the key to expire {@code ttlMillis} from now. One compare-and-set: an
     * expired lock is never revived. Fails with a {@link dev.baton.LockStoreException} rather than taking much
     * longer than {@link Renewal#maxWaitMillis()} (the runtime passes what is left of the lease).
     *
     * @param renewal whose lock to extend, for how long, within which bound
     * @return true if the owner held a live lock and it was extended; false, changing nothing, otherwise
     * @throws dev.baton.LockStoreException if the backend failed or did not answer in time
     */
    boolean renew(Renewal renewal);

    /**
     * Frees {@code owner}'s live lock on {@code key}, so another caller can take it at once. One
     * compare-and-set; never resets the key's fencing counter.
     *
     * @param key the key
     * @param owner the owner token
     * @return true if {@code owner} held a live lock and it is now gone; false, changing nothing,
     *     otherwise
     * @throws dev.baton.LockStoreException if the backend failed
     */
    boolean release(String key, String owner);

    /**
     * Releases {@code owner}'s exclusive lock on {@code next.key()} and acquires the key for {@code next}, as
     * {@link #release} followed at once by {@link #acquire}{@code (next)} with nothing of another caller between
     * them: the runtime calls it, on stores that declare {@link StoreCapability#HAND_OVER}, when it releases a lock
     * that another caller of the same process waits for, so the key passes in one round trip instead of two.
     *
     * <p>{@code next} gets the key only as that acquisition would get it on the freed key: never a key kept for
     * another waiter's turn ({@code next} carries none), so waiters of other processes keep their place; the key
     * is then released as {@link #release} releases it (and notified where the store notifies). When {@code owner}
     * no longer holds the key, it is {@code next}'s acquisition alone. A handed-over key gets a new fencing token,
     * above the released owner's.
     *
     * <p>The default makes the two calls; a store that declares {@link StoreCapability#HAND_OVER} does it in one
     * atomic step, bounded like {@link #release}.
     *
     * @param owner the owner token of the lock released
     * @param next the acquisition of the caller the key goes to: exclusive, without a {@link Turn}
     * @return whether {@code owner}'s lock was released, and what {@code next} got
     * @throws IllegalArgumentException if {@code next} is shared or carries a turn
     * @throws dev.baton.LockStoreException if the backend failed or did not answer in time
     */
    default HandOverResult handOver(String owner, Acquisition next) {
        HandOverResult.requireHandOverTo(next);
        boolean released = release(next.key(), owner);
        return new HandOverResult(released, acquire(next));
    }

    /**
     * Renews many locks with the same ttl, in one round trip where the store can (declare
     * {@link StoreCapability#BATCH_RENEW}), failing with a {@link dev.baton.LockStoreException} rather than
     * taking much longer than {@code maxWaitMillis}. The default calls {@link #renew(Renewal)} for each.
     *
     * @param leases the locks to renew
     * @param ttlMillis the new lease, 1 to {@value LockArguments#MAX_DURATION_MILLIS} ms
     * @param maxWaitMillis how long the call may take, as {@link Renewal#maxWaitMillis()}
     * @return the leases whose renewal succeeded (a lease, not a key: two leases may name one key with
     *     different owners, and at most one of them is held)
     * @throws dev.baton.LockStoreException if the backend failed or did not answer in time
     */
    default Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        Set<Lease> renewed = new HashSet<>();
        for (Lease lease : leases) {
            if (renew(new Renewal(lease.key(), lease.owner(), ttlMillis, maxWaitMillis))) {
                renewed.add(lease);
            }
        }
        return renewed;
    }

    /**
     * The live holder of {@code key}, read with the store's clock, changing nothing: not the lease, not the
     * turn. Only for stores that declare {@link StoreCapability#INSPECT}. A released or expired lock has no
     * holder. Bounded like {@link #release}: a store that bounds its calls answers within its default bound.
     *
     * @param key the key
     * <p>A key held by shared leases ({@link StoreCapability#SHARED_LOCKS}) reports the one with the greatest
     * fencing token.
     *
     * @return the holder, or empty when no live lock holds the key
     * @throws dev.baton.LockStoreException if the backend failed
     * @throws UnsupportedOperationException if the store cannot tell (the default)
     */
    default Optional<Holder> inspect(String key) {
        throw new UnsupportedOperationException(
                getClass().getName() + " cannot inspect locks: it does not declare " + StoreCapability.INSPECT);
    }

    /**
     * Registers a listener told the key of every lock (exclusive or shared) released through this backend, by any process
     * (PostgreSQL {@code LISTEN/NOTIFY}, Redis pub/sub, a watched directory), so waiters need not poll. Only for stores
     * that declare {@link StoreCapability#RELEASE_NOTIFICATION}. A store that also declares
     * {@link StoreCapability#WAITING_TURNS} need only tell the releases of keys with a live waiter's turn (a waiting
     * runtime keeps one); it may tell others. Notifications are hints: they may be late,
     * and one may be lost when the backend connection breaks, so the runtime still polls with a longer
     * interval. But the subscription is in place when this method returns: a release made after that,
     * on a healthy backend, is delivered (the TCK checks it), and none is delivered after the handle is
     * closed.
     *
     * @param listener called with the released key, on a thread of the store's; must not block
     * @return a handle that unregisters the listener
     * @throws UnsupportedOperationException if the store does not notify
     */
    default AutoCloseable onRelease(Consumer<String> listener) {
        throw new UnsupportedOperationException(getClass().getName() + " does not notify releases");
    }

    /**
     * What this store offers beyond the three operations; the runtime and the TCK read it. Called often:
     * it must be cheap and must not connect. A store that learns what its backend can do only when it
     * connects may add {@link StoreCapability#RELEASE_NOTIFICATION} and {@link StoreCapability#HAND_OVER} once it
     * has (the runtime looks again after the store's first answers); the other capabilities must not change.
     *
     * @return the capabilities
     */
    default Set<StoreCapability> capabilities() {
        return Set.of();
    }

    /**
     * Closes connections. The runtime calls it once, after releasing every held lock, at shutdown. A
     * second call must do nothing; an operation after close should fail with a
     * {@link dev.baton.LockStoreException} rather than reconnect.
     */
    @Override
    default void close() {}
}
