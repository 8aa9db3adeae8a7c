package dev.baton.etcd.internal;

import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Tells listeners of every lock key deleted below the store's root, by whichever instance and for whatever reason (a
 * release, a ttl ended by its instance, a lease the server expired or revoked): one etcd watch on the root's prefix,
 * for deletions only, for all of the instance's listeners.
 *
 * <p>jetcd resumes the watch by itself after a broken connection, from the last revision it saw; a watch the server
 * ends (its revision compacted away, say) is made again a second later. Events are hints, as the contract allows:
 * waiters poll as well.
 */
public final class ReleaseWatch implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EtcdMessage.LOGGER);

    private static final long REWATCH_MILLIS = 1_000;

    private final EtcdSession session;
    private final EtcdKeys keys;
    private final long timeoutMillis;
    private final ScheduledExecutorService timer;
    private final CopyOnWriteArrayList<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final Object guard = new Object();

    private Watch.Watcher watcher; // guarded
    private boolean closed; // guarded

    /**
     * @param session the store's session (its client)
     * @param keys where the lock keys are
     * @param timeoutMillis how long {@link #subscribe} waits for the server to set the watch
     * @param timer sets a watch again after the server ended one
     */
    public ReleaseWatch(EtcdSession session, EtcdKeys keys, long timeoutMillis, ScheduledExecutorService timer) {
        this.session = session;
        this.keys = keys;
        this.timeoutMillis = timeoutMillis;
        this.timer = timer;
    }

    /**
     * Adds a listener; the watch is set before this returns when the server answers in time.
     *
     * @param listener told each released key
     * @return what removes the listener
     */
    public AutoCloseable subscribe(Consumer<String> listener) {
        listeners.add(listener);
        CompletableFuture<Void> created;
        synchronized (guard) {
            created = watcher == null && !closed ? watch() : null;
        }
        if (created != null) {
            try {
                EtcdCalls.await(created, timeoutMillis);
            } catch (EtcdCalls.CallFailed e) {
                EtcdMessage.NOT_WATCHING.log(
                        LOG, keys.root() + "/", e.toStoreException("watch").getMessage());
            }
        }
        return () -> listeners.remove(listener);
    }

    /** Sets the watch (guarded); the future completes when the server says it is set. */
    private CompletableFuture<Void> watch() {
        CompletableFuture<Void> created = new CompletableFuture<>();
        WatchOption option = WatchOption.builder()
                .isPrefix(true)
                .withNoPut(true)
                .withCreateNotify(true)
                .build();
        watcher = session.client()
                .getWatchClient()
                .watch(keys.prefix(), option, Watch.listener(response -> delivered(response, created), failure -> {
                    created.completeExceptionally(failure);
                    ended(failure.getMessage());
                }));
        return created;
    }

    private void delivered(WatchResponse response, CompletableFuture<Void> created) {
        if (response.isCreatedNotify()) {
            created.complete(null);
        }
        for (WatchEvent event : response.getEvents()) {
            if (event.getEventType() != WatchEvent.EventType.DELETE) {
                continue;
            }
            Optional<String> key = keys.keyOf(event.getKeyValue().getKey());
            if (key.isEmpty()) {
                continue;
            }
            for (Consumer<String> listener : listeners) {
                try {
                    listener.accept(key.get());
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, EtcdMessage.LISTENER_FAILED.format(), e);
                }
            }
        }
    }

    /** The server or the client ended the watch: it is set again a second later. */
    private void ended(String why) {
        synchronized (guard) {
            if (closed) {
                return;
            }
            watcher = null;
        }
        EtcdMessage.NOT_WATCHING.log(LOG, keys.root() + "/", why);
        try {
            timer.schedule(
                    () -> {
                        synchronized (guard) {
                            if (!closed && watcher == null) {
                                watch();
                            }
                        }
                    },
                    REWATCH_MILLIS,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the store closed meanwhile
        }
    }

    /** Ends the watch; no listener is told anything after this. */
    @Override
    public void close() {
        Watch.Watcher w;
        synchronized (guard) {
            closed = true;
            w = watcher;
            watcher = null;
        }
        listeners.clear();
        if (w != null) {
            w.close();
        }
    }
}
