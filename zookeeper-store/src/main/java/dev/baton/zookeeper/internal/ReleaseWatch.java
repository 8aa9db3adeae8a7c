package dev.baton.zookeeper.internal;

import dev.baton.LockStoreException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * Tells listeners of every lock node deleted below the store's root, by whichever session and for whatever reason (a
 * release, a hand-over, a ttl ended by its instance, a session the server expired): one persistent recursive watch
 * ({@code addWatch}, ZooKeeper 3.6 and later) per session, for all of the instance's listeners.
 *
 * <p>The client sets the watch again by itself when it reconnects within its session; a new session (after the
 * server expired the last one) gets it when it connects. Events are hints, as the contract allows: a release while
 * no session of this instance is connected is not told, and waiters learn of it by polling.
 */
public final class ReleaseWatch implements Watcher {

    private static final System.Logger LOG = System.getLogger(ZooKeeperMessage.LOGGER);

    private final ZkSession session;
    private final KeyPaths paths;
    private final long timeoutMillis;
    private final CopyOnWriteArrayList<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    /** The session the watch is set on. */
    private volatile ZkSession.Handle watched;

    private volatile boolean wanted;

    /**
     * @param session the store's session
     * @param paths where the lock nodes are
     * @param timeoutMillis how long {@link #subscribe} waits for the server to set the watch
     */
    public ReleaseWatch(ZkSession session, KeyPaths paths, long timeoutMillis) {
        this.session = session;
        this.paths = paths;
        this.timeoutMillis = timeoutMillis;
        session.onConnected(this::connected);
    }

    /**
     * Adds a listener; the watch is set before this returns when the server answers in time.
     *
     * @param listener told each released key
     * @return what removes the listener
     */
    public AutoCloseable subscribe(Consumer<String> listener) {
        listeners.add(listener);
        wanted = true;
        ZkSession.Handle handle = session.handle();
        if (watched != handle) {
            try {
                Code code = ZkCalls.await(ZkCalls.addWatch(handle.zk(), paths.root(), this), timeoutMillis, "watch");
                if (code == Code.OK) {
                    watched = handle;
                } else {
                    ZooKeeperMessage.NOT_WATCHING.log(LOG, paths.root(), code);
                }
            } catch (LockStoreException e) {
                ZooKeeperMessage.NOT_WATCHING.log(LOG, paths.root(), e.getMessage());
            }
        }
        return () -> listeners.remove(listener);
    }

    /** A session connected: a new one gets the watch (on ZooKeeper's event thread: no waiting). */
    private void connected(ZkSession.Handle handle) {
        if (!wanted || watched == handle || handle.zk() == null) {
            return;
        }
        ZkCalls.addWatch(handle.zk(), paths.root(), this).thenAccept(code -> {
            if (code == Code.OK) {
                watched = handle;
            } else {
                ZooKeeperMessage.NOT_WATCHING.log(LOG, paths.root(), code);
            }
        });
    }

    @Override
    public void process(WatchedEvent event) {
        if (event.getType() != Event.EventType.NodeDeleted || event.getPath() == null) {
            return;
        }
        String key = paths.keyOfLockNode(event.getPath());
        if (key == null) {
            return;
        }
        for (Consumer<String> listener : listeners) {
            try {
                listener.accept(key);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, ZooKeeperMessage.LISTENER_FAILED.format(), e);
            }
        }
    }
}
