package dev.baton.zookeeper.internal;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.LockArguments;
import dev.baton.zookeeper.internal.ZkCalls.DataAnswer;
import dev.baton.zookeeper.internal.ZkCalls.MultiAnswer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The locks of one store instance: each an ephemeral node of the instance's session ({@link ZkSession}), taken,
 * handed over and freed by one {@code multi} transaction each, and timed by this instance.
 *
 * <h2>One transaction per operation</h2>
 * <ul>
 * <li><b>acquire</b>: {@code setData(<key node>)} and {@code create(<key node>/lock, owner, EPHEMERAL)}. The create
 * fails while a lock node exists, so of any number of racers exactly one wins; the setData raises the key node's
 * data version, so each acquisition of a key has a version of its own, and the transaction's id ({@code mzxid} of
 * the key node) is the fencing token: ZooKeeper numbers its transactions in one growing sequence across sessions,
 * restarts and leader changes (epoch in the high 32 bits).</li>
 * <li><b>release</b>: {@code check(<key node>, the version of this acquisition)} and {@code delete(lock)}, so a
 * release frees only the lock it took, never a later holder's.</li>
 * <li><b>hand over</b> (to the next caller of this instance): {@code setData(<key node>, version)}, {@code delete},
 * {@code create} for the next owner: one transaction, a new version and a new token.</li>
 * <li><b>renew</b>: a read of the lock node: it must still be this session's node of this acquisition; the ttl is
 * this instance's to keep.</li>
 * </ul>
 *
 * <h2>Ttl, and calls whose outcome is unknown</h2>
 * ZooKeeper knows no expiry but the session's: this instance ends a lock not renewed within its ttl itself, by the
 * JVM's monotonic clock (a timer, and every operation on the key checks it first). A lock is also lost for its
 * holder as soon as its session may have expired ({@link ZkSession.Handle#mayHaveExpired}). A write whose answer did
 * not come in time, or came as a lost connection, may still have been applied: the instance then deletes the node it
 * may have left, once it can reach the server ({@link #removeLater}), so no lock outlives what its caller knows.
 *
 * <p>Key nodes are containers: the server deletes one a while after its last lock node went. Tokens do not depend
 * on them.
 */
public final class ZooKeeperLocks implements AutoCloseable {

    /**
     * The shortest time a bounded call waits for the server's answer, in milliseconds: a {@code tryAcquire} (bound 0)
     * waits for no other caller, but a write needs a round of the ensemble's quorum, more than a busy machine gives
     * in a few hundred milliseconds (250 ms failed the ensemble's contract on a loaded 2-core machine).
     */
    public static final long MIN_ANSWER_MILLIS = 1_000;

    /** How long to wait before trying again to delete a node that a call left in doubt. */
    private static final long RETRY_MILLIS = 1_000;

    private static final byte[] NO_DATA = new byte[0];

    private final ZkSession session;
    private final KeyPaths paths;
    private final long operationTimeoutMillis;
    private final String description;
    private final ConcurrentHashMap<String, Held> held = new ConcurrentHashMap<>();
    /** The nodes writes may have left, each being looked after. */
    private final Set<Doubt> doubts = ConcurrentHashMap.newKeySet();

    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    /**
     * @param session the instance's session
     * @param paths where the nodes are
     * @param operationTimeoutMillis the bound of calls that come without one, and the most any call waits
     * @param timer runs the ttls and the clean-ups; the store shuts it down
     * @param description the store, for messages
     */
    public ZooKeeperLocks(
            ZkSession session,
            KeyPaths paths,
            long operationTimeoutMillis,
            ScheduledExecutorService timer,
            String description) {
        this.session = session;
        this.paths = paths;
        this.operationTimeoutMillis = operationTimeoutMillis;
        this.timer = timer;
        this.description = description;
    }

    /** A lock this instance took. */
    private static final class Held {
        final String key;
        final String owner;
        final long token;
        final int keyVersion;
        final ZkSession.Handle handle;
        /** {@link System#nanoTime()} at which the ttl ends, moved by renewals. */
        volatile long deadline;

        volatile ScheduledFuture<?> expiry;

        Held(String key, String owner, long token, int keyVersion, ZkSession.Handle handle, long deadline) {
            this.key = key;
            this.owner = owner;
            this.token = token;
            this.keyVersion = keyVersion;
            this.handle = handle;
            this.deadline = deadline;
        }

        /** Whether the lock is over for its holder: its ttl passed, or its session may have expired. */
        boolean lostAt(long now) {
            return now - deadline >= 0 || handle.mayHaveExpired(now);
        }
    }

    /**
     * Takes the key if no session holds it.
     *
     * @param key the key
     * @param owner the owner
     * @param ttlMillis the ttl this instance keeps
     * @param maxWaitMillis the call's bound (ZooKeeper never waits for another caller's lock: it bounds the wait
     *     for the answer)
     * @return acquired with the transaction's id as token, or not acquired
     */
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis) {
        checkOpen();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(answerMillis(maxWaitMillis));
        Held current = held.get(key);
        if (current != null) {
            if (!current.lostAt(System.nanoTime())) {
                return AcquireResult.notAcquired(); // held through this instance: no round trip
            }
            end(current);
        }
        ZkSession.Handle handle = session.handle();
        ZooKeeper zk = handle.zk();
        List<Op> ops = List.of(
                Op.setData(paths.keyNode(key), NO_DATA, -1),
                Op.create(paths.lockNode(key), bytes(owner), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL));
        // The key's node is made at most twice (a container the server removed as it emptied may go again once);
        // retries after connection losses before the first connection do not count.
        int nodesMade = 0;
        while (true) {
            long sentAt = System.nanoTime();
            MultiAnswer answer = awaitWrite(ZkCalls.multi(zk, ops), deadline, "acquire", key, late -> {
                if (late.code() == Code.OK) {
                    deleteLater(key, owner, late, handle); // taken after its caller gave up
                } else if (ZkCalls.inDoubt(late.code())) {
                    removeLater(key, owner, handle);
                }
            });
            switch (answer.code()) {
                case OK -> {
                    handle.answered(sentAt);
                    Stat stat = ((OpResult.SetDataResult) answer.results().get(0)).getStat();
                    Held taken = new Held(
                            key,
                            owner,
                            stat.getMzxid(),
                            stat.getVersion(),
                            handle,
                            sentAt + TimeUnit.MILLISECONDS.toNanos(ttlMillis));
                    held.put(key, taken);
                    schedule(taken);
                    return AcquireResult.acquired(stat.getMzxid());
                }
                case NODEEXISTS -> {
                    return AcquireResult.notAcquired();
                }
                case NONODE -> {
                    if (nodesMade++ == 2) {
                        throw failure("acquire", key, answer.code());
                    }
                    createKeyNode(zk, key, deadline);
                }
                default -> {
                    if (answer.code() == Code.CONNECTIONLOSS
                            && !handle.connectedOnce()
                            && System.nanoTime() - deadline < 0) {
                        continue; // no server reached yet (the client tries the next): nothing was applied
                    }
                    if (ZkCalls.inDoubt(answer.code())) {
                        removeLater(key, owner, handle);
                    }
                    throw failure("acquire", key, answer.code());
                }
            }
        }
    }

    /**
     * Checks that the session still holds {@code owner}'s lock and moves its ttl's end.
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
        // no longer than the session can be counted on: past that the lock is lost, not the call failed
        long graceMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(h.handle.graceLeftNanos(sentAt)));
        long wait = Math.min(answerMillis(maxWaitMillis), graceMillis);
        ZooKeeper zk = h.handle.zk();
        long waitEnd = sentAt + TimeUnit.MILLISECONDS.toNanos(wait);
        DataAnswer answer;
        try {
            do {
                // a read: asked again while the client is between servers
                answer = ZkCalls.await(
                        ZkCalls.getData(zk, paths.lockNode(key)), leftMillis(waitEnd), action("renew", key));
            } while (answer.code() == Code.CONNECTIONLOSS && System.nanoTime() - waitEnd < 0);
        } catch (LockStoreException e) {
            if (h.lostAt(System.nanoTime())) {
                end(h);
                return false;
            }
            throw e;
        }
        if (answer.code() == Code.OK
                && answer.stat().getEphemeralOwner() == zk.getSessionId()
                && answer.stat().getCzxid() == h.token) {
            h.handle.answered(sentAt);
            h.deadline = sentAt + TimeUnit.MILLISECONDS.toNanos(ttlMillis);
            // released or ended while the check was on its way: not renewed
            return held.get(key) == h;
        }
        if (answer.code() == Code.OK || answer.code() == Code.NONODE || answer.code() == Code.SESSIONEXPIRED) {
            end(h);
            return false;
        }
        if (h.lostAt(System.nanoTime())) {
            end(h);
            return false;
        }
        throw failure("renew", key, answer.code());
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
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(operationTimeoutMillis);
        MultiAnswer answer = awaitWrite(ZkCalls.multi(h.handle.zk(), delete(h)), deadline, "release", key, late -> {
            if (ZkCalls.inDoubt(late.code())) {
                removeLater(key, owner, h.handle);
            }
        });
        return switch (answer.code()) {
            case OK -> true;
            case NONODE, BADVERSION, SESSIONEXPIRED -> false;
            default -> {
                if (ZkCalls.inDoubt(answer.code())) {
                    removeLater(key, owner, h.handle);
                }
                throw failure("release", key, answer.code());
            }
        };
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
        List<Op> ops = List.of(
                Op.setData(paths.keyNode(key), NO_DATA, h.keyVersion),
                Op.delete(paths.lockNode(key), -1),
                Op.create(paths.lockNode(key), bytes(nextOwner), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL));
        long sentAt = System.nanoTime();
        MultiAnswer answer = awaitWrite(ZkCalls.multi(h.handle.zk(), ops), deadline, "hand over", key, late -> {
            if (late.code() == Code.OK) {
                deleteLater(key, nextOwner, late, h.handle);
            } else if (ZkCalls.inDoubt(late.code())) {
                removeLater(key, owner, h.handle);
                removeLater(key, nextOwner, h.handle);
            }
        });
        switch (answer.code()) {
            case OK -> {
                h.handle.answered(sentAt);
                Stat stat = ((OpResult.SetDataResult) answer.results().get(0)).getStat();
                Held next = new Held(
                        key,
                        nextOwner,
                        stat.getMzxid(),
                        stat.getVersion(),
                        h.handle,
                        sentAt + TimeUnit.MILLISECONDS.toNanos(ttlMillis));
                held.put(key, next);
                schedule(next);
                return new HandOverResult(true, AcquireResult.acquired(stat.getMzxid()));
            }
            case NONODE, BADVERSION, SESSIONEXPIRED -> {
                // the lock had gone (ended by its session, or from outside): the next owner's acquisition alone
                return new HandOverResult(false, acquire(key, nextOwner, ttlMillis, maxWaitMillis));
            }
            default -> {
                if (ZkCalls.inDoubt(answer.code())) {
                    removeLater(key, owner, h.handle);
                    removeLater(key, nextOwner, h.handle);
                }
                throw failure("hand over", key, answer.code());
            }
        }
    }

    /** Forgets the locks; the session's close, after this, ends them on the server. */
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
            // closed meanwhile: the session's close ends the lock
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

    /** Ends a lock that is over for its holder: forgotten here, and its node deleted if its session still lives. */
    private void end(Held h) {
        if (!held.remove(h.key, h)) {
            return;
        }
        cancelExpiry(h);
        if (!h.handle.expired()) {
            ZkCalls.multi(h.handle.zk(), delete(h)).thenAccept(answer -> {
                if (ZkCalls.inDoubt(answer.code())) {
                    removeLater(h.key, h.owner, h.handle);
                }
            });
        }
    }

    // --- nodes left in doubt ---

    /** Deletes the lock node a late answer says {@code owner} got, if it is still that one. */
    private void deleteLater(String key, String owner, MultiAnswer late, ZkSession.Handle handle) {
        int version = ((OpResult.SetDataResult) late.results().get(0)).getStat().getVersion();
        ZkCalls.multi(handle.zk(), delete(key, version)).thenAccept(answer -> {
            if (ZkCalls.inDoubt(answer.code())) {
                removeLater(key, owner, handle);
            }
        });
    }

    /** A lock node a write may have left: {@code owner}'s on {@code key}, of {@code handle}'s session. */
    private record Doubt(String key, String owner, ZkSession.Handle handle) {}

    /**
     * Deletes {@code owner}'s lock node on {@code key} if {@code handle}'s session still has it and this instance
     * does not hold it: a write whose outcome was not known may have made it. Tried every second until the session
     * answers or ends; one attempt per node at a time.
     */
    private void removeLater(String key, String owner, ZkSession.Handle handle) {
        if (!handle.connectedOnce()) {
            return; // the client never reached a server: nothing it sent can have been applied
        }
        Doubt doubt = new Doubt(key, owner, handle);
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
            doubts.remove(doubt); // closed meanwhile: the session's close ends every node it made
        }
    }

    private void removeIfLeft(Doubt doubt) {
        ZkSession.Handle handle = doubt.handle();
        if (closed || handle.expired()) {
            doubts.remove(doubt); // the server deletes a session's nodes when it ends
            return;
        }
        ZooKeeper zk = handle.zk();
        String key = doubt.key();
        String lockNode = paths.lockNode(key);
        ZkCalls.getData(zk, lockNode).thenAccept(lock -> {
            if (ZkCalls.inDoubt(lock.code())) {
                retry(doubt);
                return;
            }
            Held h = held.get(key);
            if (lock.code() != Code.OK
                    || lock.stat().getEphemeralOwner() != zk.getSessionId()
                    || !doubt.owner().equals(new String(lock.data(), StandardCharsets.US_ASCII))
                    || (h != null
                            && h.handle == handle
                            && h.token == lock.stat().getCzxid())) {
                doubts.remove(doubt); // gone, another's, or a lock this instance holds: nothing left over
                return;
            }
            ZkCalls.getData(zk, paths.keyNode(key)).thenAccept(keyNode -> {
                if (keyNode.code() != Code.OK) {
                    if (ZkCalls.inDoubt(keyNode.code())) {
                        retry(doubt);
                    } else {
                        doubts.remove(doubt);
                    }
                    return;
                }
                // the key node's version cannot change while this lock node exists: it names this very node
                ZkCalls.multi(zk, delete(key, keyNode.stat().getVersion())).thenAccept(done -> {
                    if (ZkCalls.inDoubt(done.code())) {
                        retry(doubt);
                    } else {
                        doubts.remove(doubt);
                    }
                });
            });
        });
    }

    // --- helpers ---

    /** The transaction that deletes {@code h}'s node, and only it. */
    private List<Op> delete(Held h) {
        return delete(h.key, h.keyVersion);
    }

    /** The transaction that deletes the key's lock node only while the key node is at {@code version}. */
    private List<Op> delete(String key, int version) {
        return List.of(Op.check(paths.keyNode(key), version), Op.delete(paths.lockNode(key), -1));
    }

    /** Makes the key's node (and the root's path, if missing). */
    private void createKeyNode(ZooKeeper zk, String key, long deadline) {
        Code code = create(zk, paths.keyNode(key), CreateMode.CONTAINER, key, deadline);
        if (code == Code.NONODE) {
            createRoot(zk, key, deadline);
            code = create(zk, paths.keyNode(key), CreateMode.CONTAINER, key, deadline);
        }
        if (code != Code.OK && code != Code.NODEEXISTS) {
            throw failure("acquire", key, code);
        }
    }

    /** Creates a node, asked again while the client is between servers (a node that exists is as good). */
    private Code create(ZooKeeper zk, String path, CreateMode mode, String key, long deadline) {
        Code code;
        do {
            code = ZkCalls.await(ZkCalls.create(zk, path, mode), leftMillis(deadline), action("acquire", key));
        } while (code == Code.CONNECTIONLOSS && System.nanoTime() - deadline < 0);
        return code;
    }

    private void createRoot(ZooKeeper zk, String key, long deadline) {
        String root = paths.root();
        for (int slash = root.indexOf('/', 1); ; slash = root.indexOf('/', slash + 1)) {
            String path = slash < 0 ? root : root.substring(0, slash);
            Code code = create(zk, path, CreateMode.PERSISTENT, key, deadline);
            if (code != Code.OK && code != Code.NODEEXISTS) {
                throw new LockStoreException(description + " could not create its root node " + path + ": " + code);
            }
            if (slash < 0) {
                return;
            }
        }
    }

    /**
     * Waits for a write's answer until {@code deadline}; when none came, hands the answer still to come to
     * {@code late} and fails.
     */
    private MultiAnswer awaitWrite(
            CompletableFuture<MultiAnswer> call,
            long deadline,
            String action,
            String key,
            java.util.function.Consumer<MultiAnswer> late) {
        try {
            return ZkCalls.await(call, leftMillis(deadline), action(action, key));
        } catch (LockStoreException e) {
            call.thenAccept(late);
            throw e;
        }
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

    private LockStoreException failure(String action, String key, Code code) {
        return new LockStoreException(action(action, key) + ": ZooKeeper answered " + code);
    }

    private static byte[] bytes(String owner) {
        return owner.getBytes(StandardCharsets.US_ASCII); // owners are printable ASCII
    }

    private static String abbreviate(String key) {
        return key.length() <= 60 ? key : key.substring(0, 57) + "...";
    }
}
