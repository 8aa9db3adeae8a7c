package dev.baton.etcd.internal;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.LockArguments;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The locks of one store instance: each an etcd key bound to the instance's lease ({@link EtcdSession}), taken,
 * handed over and freed by one transaction each, and timed by this instance.
 *
 * <h2>One transaction per operation</h2>
 * <ul>
 * <li><b>acquire</b>: if the lock key does not exist ({@code create_revision = 0}), put it with the owner as value,
 * bound to the lease; else read it. Of any number of racers exactly one wins. The transaction's revision (the key's
 * {@code mod_revision}) is the fencing token: etcd numbers its writes in one growing sequence for the whole
 * cluster, across leases, restarts and leader changes.</li>
 * <li><b>release</b>: if the key's {@code mod_revision} is still this acquisition's token, delete it: a release
 * frees only the lock it took, never a later holder's.</li>
 * <li><b>hand over</b> (to the next caller of this instance): if the {@code mod_revision} is this acquisition's,
 * put the next owner: a new revision, so a new token, and the lock never free between the two.</li>
 * <li><b>renew</b>: a read of the key: it must still be this acquisition's, on this lease; the ttl is this
 * instance's to keep.</li>
 * </ul>
 *
 * <h2>Ttl, and calls whose outcome is unknown</h2>
 * etcd's only expiry is the lease's: this instance ends a lock not renewed within its ttl itself, by the JVM's
 * monotonic clock (a timer, and every operation on the key checks it first). A lock is also lost for its holder as
 * soon as its lease may have expired ({@link EtcdSession.Lease#mayHaveExpired}). A write whose answer did not come
 * in time may still have been applied: the instance then deletes the key it may have left, once the server answers
 * again ({@link #removeLater}), so no lock outlives what its caller knows.
 */
public final class EtcdLocks implements AutoCloseable {

    /**
     * The shortest time a bounded call waits for the server's answer, in milliseconds: a {@code tryAcquire} (bound 0)
     * waits for no other caller, but a Raft write needs a round of the cluster, more than a busy machine gives in a
     * few hundred milliseconds.
     */
    public static final long MIN_ANSWER_MILLIS = 1_000;

    /** How long to wait before trying again to delete a key that a call left in doubt. */
    private static final long RETRY_MILLIS = 1_000;

    private final EtcdSession session;
    private final EtcdKeys keys;
    private final long operationTimeoutMillis;
    private final String description;
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();
    /** The keys writes may have left, each being looked after. */
    private final Set<Doubt> doubts = ConcurrentHashMap.newKeySet();

    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    /**
     * @param session the instance's lease
     * @param keys where the locks are
     * @param operationTimeoutMillis the bound of calls that come without one, and the most any call waits
     * @param timer runs the ttls and the clean-ups; the store shuts it down
     * @param description the store, for messages
     */
    public EtcdLocks(
            EtcdSession session,
            EtcdKeys keys,
            long operationTimeoutMillis,
            ScheduledExecutorService timer,
            String description) {
        this.session = session;
        this.keys = keys;
        this.operationTimeoutMillis = operationTimeoutMillis;
        this.timer = timer;
        this.description = description;
    }

    /** A lock this instance took. */
    private static final class Held {
        final String key;
        final String owner;
        /** The {@code mod_revision} of the key written by this acquisition. */
        final long token;

        final EtcdSession.Lease lease;
        /** {@link System#nanoTime()} at which the ttl ends, moved by renewals. */
        volatile long deadline;

        volatile ScheduledFuture<?> expiry;

        Held(String key, String owner, long token, EtcdSession.Lease lease, long deadline) {
            this.key = key;
            this.owner = owner;
            this.token = token;
            this.lease = lease;
            this.deadline = deadline;
        }

        /** Whether the lock is over for its holder: its ttl passed, or its lease may have expired. */
        boolean lostAt(long now) {
            return now - deadline >= 0 || lease.mayHaveExpired(now);
        }
    }

    /**
     * Takes the key if no lease holds it.
     *
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the ttl this instance keeps
     * @param maxWaitMillis the call's bound (etcd never waits for another caller's lock: it bounds the wait for the
     *     answer)
     * @return acquired with the transaction's revision as token, or not acquired
     */
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis) {
        checkOpen();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(answerMillis(maxWaitMillis));
        Held current = held.get(key);
        if (current != null) {
            if (!current.lostAt(System.nanoTime())) {
                return AcquireResult.notAcquired(); // held through this instance: no round trip
            }
            // deleted before the acquisition is sent: etcd does not keep two calls of one client in order
            awaitQuietly(end(current), deadline);
        }
        ByteSequence lockKey = keys.lockKey(key);
        for (int attempt = 1; ; attempt++) {
            EtcdSession.Lease lease = session.lease(deadline);
            long sentAt = System.nanoTime();
            CompletableFuture<TxnResponse> call = kv().txn()
                    .If(new Cmp(lockKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                    .Then(Op.put(lockKey, bytes(owner), bound(lease)))
                    .Else(Op.get(lockKey, GetOption.DEFAULT))
                    .commit();
            TxnResponse answer;
            try {
                answer = EtcdCalls.await(call, leftMillis(deadline));
            } catch (EtcdCalls.CallFailed e) {
                if (e.leaseGone() && attempt < 3) {
                    lease.gone(); // expired on the server meanwhile: nothing was written; a new lease
                    continue;
                }
                if (e.inDoubt()) {
                    if (e.timedOut()) {
                        call.thenAccept(late -> {
                            if (late.isSucceeded()) {
                                deleteLater(key, owner, late.getHeader().getRevision(), lease); // taken too late
                            }
                        });
                    }
                    removeLater(key, owner, lease);
                }
                throw e.toStoreException(action("acquire", key));
            }
            long token;
            if (answer.isSucceeded()) {
                token = answer.getHeader().getRevision();
            } else {
                KeyValue holder = first(answer.getGetResponses());
                if (holder == null
                        || holder.getLease() != lease.id()
                        || !holder.getValue().equals(bytes(owner))) {
                    return AcquireResult.notAcquired();
                }
                // this owner's own key on this lease: a retry of a put whose first answer was lost
                token = holder.getModRevision();
            }
            if (uncountable(key, owner, token, lease)) {
                if (attempt < 3) {
                    continue; // on a new lease: the session no longer hands out this one
                }
                throw new LockStoreException(
                        action("acquire", key) + ": three times the answer came after the lease's grace had run out");
            }
            Held taken = new Held(key, owner, token, lease, sentAt + TimeUnit.MILLISECONDS.toNanos(ttlMillis));
            held.put(key, taken);
            schedule(taken);
            return AcquireResult.acquired(token);
        }
    }

    /**
     * Checks that the lease still holds {@code owner}'s lock and moves its ttl's end.
     *
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the new ttl, from when the check is sent
     * @param maxWaitMillis the call's bound
     * @return true if renewed; false if the lock is not this instance's or is lost
     */
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        checkOpen();
        Held h = held.get(key);
        if (h == null || !h.owner.equals(owner)) {
            return false;
        }
        long sentAt = System.nanoTime();
        if (h.lostAt(sentAt)) {
            end(h);
            return false;
        }
        // no longer than the lease can be counted on: past that the lock is lost, not the call failed
        long graceMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(h.lease.graceLeftNanos(sentAt)));
        long wait = Math.min(answerMillis(maxWaitMillis), graceMillis);
        GetResponse answer;
        try {
            answer = EtcdCalls.await(kv().get(keys.lockKey(key), GetOption.DEFAULT), wait);
        } catch (EtcdCalls.CallFailed e) {
            if (h.lostAt(System.nanoTime())) {
                end(h);
                return false;
            }
            throw e.toStoreException(action("renew", key));
        }
        KeyValue lock = first(List.of(answer));
        if (lock != null && lock.getModRevision() == h.token && lock.getLease() == h.lease.id()) {
            h.deadline = sentAt + TimeUnit.MILLISECONDS.toNanos(ttlMillis);
            // released or ended while the check was on its way: not renewed
            return held.get(key) == h && !h.lease.mayHaveExpired(System.nanoTime());
        }
        end(h);
        return false;
    }

    /**
     * Frees {@code owner}'s lock, if it is this instance's and not lost.
     *
     * @param key the key
     * @param owner the owner
     * @return true if this call freed it
     */
    public boolean release(String key, String owner) {
        checkOpen();
        Held h = held.get(key);
        if (h == null || !h.owner.equals(owner)) {
            return false;
        }
        if (h.lostAt(System.nanoTime())) {
            end(h);
            return false;
        }
        if (!held.remove(key, h)) {
            return false; // ended or released by another call meanwhile
        }
        cancelExpiry(h);
        CompletableFuture<TxnResponse> call = delete(h.key, h.token);
        try {
            return EtcdCalls.await(call, operationTimeoutMillis).isSucceeded();
        } catch (EtcdCalls.CallFailed e) {
            if (e.inDoubt()) {
                removeLater(key, owner, h.lease);
            }
            throw e.toStoreException(action("release", key));
        }
    }

    /**
     * Passes {@code owner}'s lock on {@code key} to {@code nextOwner} in one transaction; when {@code owner} no
     * longer holds it, {@code nextOwner}'s plain acquisition.
     *
     * @param owner the owner of the lock released
     * @param key the key
     * @param nextOwner the owner the key goes to
     * @param ttlMillis the next owner's ttl
     * @param maxWaitMillis the call's bound
     * @return whether {@code owner}'s lock was released, and what the next owner got
     */
    public HandOverResult handOver(String owner, String key, String nextOwner, long ttlMillis, long maxWaitMillis) {
        checkOpen();
        Held h = held.get(key);
        if (h == null || !h.owner.equals(owner)) {
            return new HandOverResult(false, acquire(key, nextOwner, ttlMillis, maxWaitMillis));
        }
        if (h.lostAt(System.nanoTime()) || !held.remove(key, h)) {
            end(h);
            return new HandOverResult(false, acquire(key, nextOwner, ttlMillis, maxWaitMillis));
        }
        cancelExpiry(h);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(answerMillis(maxWaitMillis));
        ByteSequence lockKey = keys.lockKey(key);
        long sentAt = System.nanoTime();
        CompletableFuture<TxnResponse> call = kv().txn()
                .If(new Cmp(lockKey, Cmp.Op.EQUAL, CmpTarget.modRevision(h.token)))
                .Then(Op.put(lockKey, bytes(nextOwner), bound(h.lease)))
                .commit();
        TxnResponse answer;
        try {
            answer = EtcdCalls.await(call, leftMillis(deadline));
        } catch (EtcdCalls.CallFailed e) {
            if (e.inDoubt()) {
                if (e.timedOut()) {
                    call.thenAccept(late -> {
                        if (late.isSucceeded()) {
                            deleteLater(key, nextOwner, late.getHeader().getRevision(), h.lease);
                        }
                    });
                }
                removeLater(key, owner, h.lease);
                removeLater(key, nextOwner, h.lease);
            }
            throw e.toStoreException(action("hand over", key));
        }
        if (!answer.isSucceeded()) {
            // the lock had gone (its lease expired, or deleted from outside): the next owner's acquisition alone
            return new HandOverResult(false, acquire(key, nextOwner, ttlMillis, maxWaitMillis));
        }
        long token = answer.getHeader().getRevision();
        if (uncountable(key, nextOwner, token, h.lease)) {
            return new HandOverResult(true, acquire(key, nextOwner, ttlMillis, maxWaitMillis));
        }
        Held next = new Held(key, nextOwner, token, h.lease, sentAt + TimeUnit.MILLISECONDS.toNanos(ttlMillis));
        held.put(key, next);
        schedule(next);
        return new HandOverResult(true, AcquireResult.acquired(token));
    }

    /**
     * Whether a lock just written is on a lease whose grace ran out before the write was answered: the server may let
     * that lease expire at any moment, and no holder could be told first, so the lock is deleted at once (or later,
     * when that call goes unanswered) and not given to anyone.
     */
    private boolean uncountable(String key, String owner, long token, EtcdSession.Lease lease) {
        if (!lease.mayHaveExpired(System.nanoTime())) {
            return false;
        }
        try {
            EtcdCalls.await(delete(key, token), operationTimeoutMillis);
        } catch (EtcdCalls.CallFailed e) {
            if (e.inDoubt()) {
                removeLater(key, owner, lease);
            }
        }
        return true;
    }

    /** Forgets the locks; the session's close, after this, revokes the lease and so deletes them. */
    @Override
    public void close() {
        closed = true;
        held.clear();
    }

    // --- the ttl ---

    private void schedule(Held h) {
        long delay = h.deadline - System.nanoTime();
        try {
            h.expiry = timer.schedule(() -> expireIfDue(h), Math.max(0, delay), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile: the lease's revocation ends the lock
        }
    }

    private void expireIfDue(Held h) {
        if (held.get(h.key) != h) {
            return;
        }
        if (System.nanoTime() - h.deadline < 0) {
            schedule(h); // renewed since
            return;
        }
        end(h);
    }

    private static void cancelExpiry(Held h) {
        ScheduledFuture<?> f = h.expiry;
        if (f != null) {
            f.cancel(false);
        }
    }

    /**
     * Ends a lock that is over for its holder: forgotten here, and its key deleted if it is still this one.
     *
     * @return the deletion, done when the server answered (at once when there is nothing to delete)
     */
    private CompletableFuture<?> end(Held h) {
        if (!held.remove(h.key, h)) {
            return CompletableFuture.completedFuture(null);
        }
        cancelExpiry(h);
        if (h.lease.expired() || closed) {
            return CompletableFuture.completedFuture(null);
        }
        return delete(h.key, h.token).whenComplete((answer, failure) -> {
            if (failure != null && EtcdCalls.inDoubt(failure)) {
                removeLater(h.key, h.owner, h.lease);
            }
        });
    }

    private static void awaitQuietly(CompletableFuture<?> call, long deadline) {
        try {
            EtcdCalls.await(call, leftMillis(deadline));
        } catch (EtcdCalls.CallFailed e) {
            // looked after by removeLater; the acquisition then finds the key taken, or free
        }
    }

    // --- keys left in doubt ---

    /** Deletes the key a late answer says {@code owner} got at {@code revision}, if it is still that one. */
    private void deleteLater(String key, String owner, long revision, EtcdSession.Lease lease) {
        delete(key, revision).whenComplete((answer, failure) -> {
            if (failure != null && EtcdCalls.inDoubt(failure)) {
                removeLater(key, owner, lease);
            }
        });
    }

    /** A lock key a write may have left: {@code owner}'s on {@code key}, bound to {@code lease}. */
    private record Doubt(String key, String owner, EtcdSession.Lease lease) {}

    /**
     * Deletes {@code owner}'s key {@code key} if it is bound to {@code lease} and this instance does not hold it: a
     * write whose outcome was not known may have made it. Tried every second until the server answers or the lease
     * ends; one attempt per key at a time.
     */
    private void removeLater(String key, String owner, EtcdSession.Lease lease) {
        Doubt doubt = new Doubt(key, owner, lease);
        if (doubts.add(doubt)) {
            retry(doubt);
        }
    }

    private void retry(Doubt doubt) {
        if (closed) {
            doubts.remove(doubt);
            return;
        }
        try {
            timer.schedule(() -> removeIfLeft(doubt), RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            doubts.remove(doubt); // closed meanwhile: revoking the lease deletes every key bound to it
        }
    }

    private void removeIfLeft(Doubt doubt) {
        if (closed || doubt.lease().expired()) {
            doubts.remove(doubt); // the server deletes a lease's keys when it ends
            return;
        }
        String key = doubt.key();
        kv().get(keys.lockKey(key), GetOption.DEFAULT)
                .orTimeout(operationTimeoutMillis, TimeUnit.MILLISECONDS)
                .whenComplete((answer, failure) -> {
                    if (failure != null) {
                        retry(doubt);
                        return;
                    }
                    KeyValue lock = first(List.of(answer));
                    Held h = held.get(key);
                    if (lock == null
                            || lock.getLease() != doubt.lease().id()
                            || !lock.getValue().equals(bytes(doubt.owner()))
                            || (h != null && h.token == lock.getModRevision())) {
                        doubts.remove(doubt); // gone, another's, or a lock this instance holds: nothing left over
                        return;
                    }
                    delete(key, lock.getModRevision()).whenComplete((done, deleteFailure) -> {
                        if (deleteFailure != null && EtcdCalls.inDoubt(deleteFailure)) {
                            retry(doubt);
                        } else {
                            doubts.remove(doubt);
                        }
                    });
                });
    }

    // --- helpers ---

    private KV kv() {
        return session.client().getKVClient();
    }

    /** The transaction that deletes the key only while its {@code mod_revision} is {@code revision}. */
    private CompletableFuture<TxnResponse> delete(String key, long revision) {
        ByteSequence lockKey = keys.lockKey(key);
        return kv().txn()
                .If(new Cmp(lockKey, Cmp.Op.EQUAL, CmpTarget.modRevision(revision)))
                .Then(Op.delete(lockKey, DeleteOption.DEFAULT))
                .commit()
                .orTimeout(operationTimeoutMillis, TimeUnit.MILLISECONDS);
    }

    private static PutOption bound(EtcdSession.Lease lease) {
        return PutOption.builder().withLeaseId(lease.id()).build();
    }

    private static KeyValue first(List<GetResponse> answers) {
        if (answers.isEmpty() || answers.get(0).getKvs().isEmpty()) {
            return null;
        }
        return answers.get(0).getKvs().get(0);
    }

    private long answerMillis(long maxWaitMillis) {
        if (maxWaitMillis == LockArguments.STORE_BOUND) {
            return operationTimeoutMillis;
        }
        return Math.min(operationTimeoutMillis, Math.max(MIN_ANSWER_MILLIS, maxWaitMillis));
    }

    private static long leftMillis(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    private void checkOpen() {
        if (closed) {
            throw new LockStoreException(description + " is closed");
        }
    }

    private String action(String action, String key) {
        return description + " could not " + action + " key '" + abbreviate(key) + "'";
    }

    private static ByteSequence bytes(String owner) {
        return ByteSequence.from(owner, StandardCharsets.US_ASCII); // owners are printable ASCII
    }

    private static String abbreviate(String key) {
        return key.length() <= 60 ? key : key.substring(0, 57) + "...";
    }
}
