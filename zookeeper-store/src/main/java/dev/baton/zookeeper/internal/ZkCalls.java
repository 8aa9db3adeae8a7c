package dev.baton.zookeeper.internal;

import dev.baton.LockStoreException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * ZooKeeper's asynchronous calls as futures of their answers, so a caller waits no longer than its bound: the
 * synchronous calls of the client wait until the server answers or the session ends. An answer carries the
 * server's result code; only the wait itself can fail ({@link #await}).
 */
final class ZkCalls {

    /** An answer to a {@code multi}: the code of the transaction and each operation's result. */
    record MultiAnswer(Code code, List<OpResult> results) {}

    /** An answer to a {@code getData}: the code, and the data and stat when the node exists. */
    record DataAnswer(Code code, byte[] data, Stat stat) {}

    private ZkCalls() {}

    static CompletableFuture<MultiAnswer> multi(ZooKeeper zk, List<Op> ops) {
        CompletableFuture<MultiAnswer> answer = new CompletableFuture<>();
        zk.multi(ops, (rc, path, ctx, results) -> answer.complete(new MultiAnswer(Code.get(rc), results)), null);
        return answer;
    }

    static CompletableFuture<DataAnswer> getData(ZooKeeper zk, String path) {
        CompletableFuture<DataAnswer> answer = new CompletableFuture<>();
        zk.getData(
                path,
                false,
                (rc, p, ctx, data, stat) -> answer.complete(new DataAnswer(Code.get(rc), data, stat)),
                null);
        return answer;
    }

    static CompletableFuture<Code> create(ZooKeeper zk, String path, CreateMode mode) {
        CompletableFuture<Code> answer = new CompletableFuture<>();
        zk.create(
                path,
                new byte[0],
                ZooDefs.Ids.OPEN_ACL_UNSAFE,
                mode,
                (rc, p, ctx, name) -> answer.complete(Code.get(rc)),
                null);
        return answer;
    }

    static CompletableFuture<Code> addWatch(ZooKeeper zk, String path, Watcher watcher) {
        CompletableFuture<Code> answer = new CompletableFuture<>();
        zk.addWatch(
                path, watcher, AddWatchMode.PERSISTENT_RECURSIVE, (rc, p, ctx) -> answer.complete(Code.get(rc)), null);
        return answer;
    }

    /**
     * Waits for an answer.
     *
     * @param answer the call's answer to come
     * @param millis how long to wait
     * @param what the call, for the message
     * @return the answer
     * @throws LockStoreException if none came in time (the call may still take effect) or the wait was
     *     interrupted (the interrupt is kept)
     */
    static <T> T await(CompletableFuture<T> answer, long millis, String what) {
        try {
            return answer.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new LockStoreException(what + ": ZooKeeper did not answer within " + millis + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockStoreException(what + ": interrupted while waiting for ZooKeeper's answer", e);
        } catch (ExecutionException e) {
            throw new LockStoreException(what + ": " + e.getCause(), e.getCause());
        }
    }

    /**
     * @param code a result code
     * @return whether the call may or may not have taken effect: the connection or the session went away first
     */
    static boolean inDoubt(Code code) {
        return code == Code.CONNECTIONLOSS || code == Code.OPERATIONTIMEOUT || code == Code.SESSIONMOVED;
    }
}
