package dev.baton.bench;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The ZooKeeper baseline: a session of its own; acquire is {@code create(EPHEMERAL)} of the key's node (fails while
 * it exists), release its {@code delete}. The store does more per call: a {@code multi} that also raises the key
 * node's version (acquire) or checks it (release), so that a release never deletes a later holder's node.
 */
final class RawZooKeeper implements RawClient {

    static final String ROOT = "/bench-raw";

    private final ZooKeeper zk;

    private RawZooKeeper(ZooKeeper zk) {
        this.zk = zk;
    }

    static RawZooKeeper open(String connect) {
        try {
            CompletableFuture<Void> connected = new CompletableFuture<>();
            ZooKeeper zk = new ZooKeeper(connect, 30_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.complete(null);
                }
            });
            connected.get(30, TimeUnit.SECONDS);
            try {
                zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // another client made it
            }
            return new RawZooKeeper(zk);
        } catch (Exception e) {
            throw new IllegalStateException("the raw ZooKeeper client did not connect to " + connect, e);
        }
    }

    /** @return the client, for the notified baseline */
    ZooKeeper zk() {
        return zk;
    }

    static String path(String key) {
        return ROOT + "/" + key;
    }

    @Override
    public boolean acquire(String key, String owner, long ttlMillis) {
        return call(
                () -> zk.create(
                        path(key),
                        owner.getBytes(StandardCharsets.US_ASCII),
                        ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL),
                KeeperException.NodeExistsException.class);
    }

    @Override
    public boolean release(String key, String owner) {
        return call(() -> zk.delete(path(key), -1), KeeperException.NoNodeException.class);
    }

    /** A ZooKeeper call of the raw pair. */
    private interface Call {
        void run() throws KeeperException, InterruptedException;
    }

    /** @return whether {@code call} succeeded; false when ZooKeeper refused it with {@code refused} */
    private static boolean call(Call call, Class<? extends KeeperException> refused) {
        try {
            call.run();
            return true;
        } catch (KeeperException e) {
            if (refused.isInstance(e)) {
                return false;
            }
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            zk.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
