package dev.baton.impl.store.file;

import dev.baton.LockStoreException;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Tells listeners of the releases in a lock directory, made by any process of this machine: a release (of a key with
 * a live waiter's turn) writes its lock file's companion ({@link SharedFile#signalRelease}), which no other operation
 * writes, and the JDK's
 * {@link WatchService} (inotify on Linux) reports the change. Renewals, acquisitions and turns write the lock file
 * itself, so a waiter that claims its turn does not wake itself.
 *
 * <p>One watch service and one thread ({@code baton-file-release-watch}) per directory in this JVM, whatever the
 * number of store instances and subscriptions on it (the operating system allows a process few watch services:
 * 128 per user by default on Linux); they end with the directory's last subscription.
 *
 * <p>Hints, as the contract allows: an overflow of the operating system's event queue drops events, and a file
 * system shared between hosts does not report what other hosts write; waiters then learn of the release by polling.
 */
final class ReleaseWatch {

    /** The watches of this JVM by directory (a real path); guarded by the map. */
    private static final Map<Path, ReleaseWatch> WATCHES = new HashMap<>();

    private final Path directory;
    private final WatchService watcher;
    private final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();

    private ReleaseWatch(Path directory, WatchService watcher) {
        this.directory = directory;
        this.watcher = watcher;
    }

    /**
     * Subscribes to the releases in {@code directory}; the watch is in place when this returns.
     *
     * @param directory the lock directory, a real path
     * @param keyOfFile a lock file's name to its key, null when the subscriber cannot tell
     * @param listener told the key of each release
     * @return the subscription: once closed, the listener is not called again
     * @throws LockStoreException if the directory cannot be watched
     */
    static AutoCloseable subscribe(Path directory, Function<String, String> keyOfFile, Consumer<String> listener) {
        Subscription subscription = new Subscription(keyOfFile, listener);
        synchronized (WATCHES) {
            ReleaseWatch watch = WATCHES.get(directory);
            if (watch == null) {
                watch = start(directory);
                WATCHES.put(directory, watch);
            }
            watch.subscriptions.add(subscription);
            ReleaseWatch subscribed = watch;
            return () -> subscribed.unsubscribe(subscription);
        }
    }

    private static ReleaseWatch start(Path directory) {
        WatchService watcher;
        try {
            watcher = directory.getFileSystem().newWatchService();
        } catch (IOException e) {
            throw new LockStoreException("The lock directory " + directory + " cannot be watched: " + e, e);
        }
        try {
            directory.register(watcher, StandardWatchEventKinds.ENTRY_MODIFY);
        } catch (IOException | RuntimeException e) {
            try {
                watcher.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw new LockStoreException("The lock directory " + directory + " cannot be watched: " + e, e);
        }
        ReleaseWatch watch = new ReleaseWatch(directory, watcher);
        Thread thread = new Thread(watch::run, "baton-file-release-watch");
        thread.setDaemon(true);
        thread.start();
        return watch;
    }

    private void unsubscribe(Subscription subscription) throws IOException {
        subscription.close();
        synchronized (WATCHES) {
            if (subscriptions.remove(subscription) && subscriptions.isEmpty()) {
                WATCHES.remove(directory);
                watcher.close(); // ends the thread
            }
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey signalled = watcher.take();
                for (WatchEvent<?> event : signalled.pollEvents()) {
                    if (event.context() instanceof Path name && name.toString().endsWith(SharedFile.COMPANION_SUFFIX)) {
                        String lockFile = name.toString();
                        lockFile = lockFile.substring(0, lockFile.length() - SharedFile.COMPANION_SUFFIX.length());
                        for (Subscription subscription : subscriptions) {
                            subscription.tell(lockFile);
                        }
                    }
                }
                if (!signalled.reset()) {
                    // The directory is gone: nothing more to watch; a later subscription starts afresh.
                    synchronized (WATCHES) {
                        WATCHES.remove(directory, this);
                    }
                    watcher.close();
                    return;
                }
            }
        } catch (ClosedWatchServiceException | InterruptedException | IOException e) {
            // the last subscription was closed
        }
    }

    /** One listener, with its store's way of naming keys. */
    private static final class Subscription {

        private final Function<String, String> keyOfFile;
        private final Consumer<String> listener;
        /** Guarded by {@code this}: after {@link #close()} returns, the listener is not called again. */
        private boolean closed;

        Subscription(Function<String, String> keyOfFile, Consumer<String> listener) {
            this.keyOfFile = keyOfFile;
            this.listener = listener;
        }

        synchronized void tell(String lockFile) {
            if (closed) {
                return;
            }
            String key = keyOfFile.apply(lockFile);
            if (key == null) {
                return;
            }
            try {
                listener.accept(key);
            } catch (RuntimeException e) {
                // a hint only: the key is released all the same, and the waiters still poll
            }
        }

        synchronized void close() {
            closed = true;
        }
    }
}
