package dev.baton.impl.store.file;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The registry of this JVM's {@link SharedFile}s: one per path, for every store instance of this copy of
 * Baton (so locks outlive the store instance that took them, as long as the JVM lives). A file is open
 * while a thread uses it or this JVM holds a liveness region in it, and closed otherwise, so an
 * application using many keys keeps only its held keys' files open.
 */
final class SharedFiles {

    private static final Map<Path, SharedFile> OPEN = new ConcurrentHashMap<>();

    private SharedFiles() {}

    /**
     * Opens {@code path} (creating the file) or joins the open one, unless that one was found
     * {@linkplain SharedFile#replaced replaced}; pair with {@link #done}.
     *
     * @param path an absolute, real path
     * @return the file
     * @throws IOException if it cannot be opened
     */
    static SharedFile use(Path path) throws IOException {
        IOException[] failure = {null};
        SharedFile file = OPEN.compute(path, (p, open) -> {
            if (open != null && !open.replaced) {
                open.users++;
                return open;
            }
            try { // a replaced file stays open for its users, outside the registry, and holds no liveness region
                SharedFile created = SharedFile.open(p);
                created.users = 1;
                return created;
            } catch (IOException e) {
                failure[0] = e;
                return null;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        return file;
    }

    /**
     * Leaves a file; the last user closes it unless this JVM holds a key in it.
     *
     * @param file a file from {@link #use}
     */
    static void done(SharedFile file) {
        OPEN.compute(file.path, (p, open) -> { // under the path's lock also when file is a replaced one
            file.users--;
            if (file.users > 0 || file.slot != null) {
                return open;
            }
            try {
                // A replaced file whose companion (or lock file) is still the path's shares it with the new
                // SharedFile, and closing it drops this JVM's locks there too: the other file's locks still
                // hold (a region counts as free only when free in both), and a renewal takes them again.
                file.close();
            } catch (IOException e) {
                // Nothing of ours is locked in it any more; a failed close only costs a descriptor.
            }
            return open == file ? null : open;
        });
    }

    /**
     * @param nowMillis the wall clock
     * @return the files in which this JVM holds a liveness region whose lease, as this JVM last wrote it, is over
     */
    static List<Path> withLapsedSlots(long nowMillis) {
        List<Path> lapsed = new ArrayList<>();
        OPEN.forEach((path, file) -> {
            SharedFile.Slot slot = file.slot;
            if (slot != null && slot.expiresAtMillis() <= nowMillis) {
                lapsed.add(path);
            }
        });
        return lapsed;
    }

    /** @return whether this JVM has {@code path} open, for tests */
    static boolean isOpen(Path path) {
        return OPEN.containsKey(path);
    }

    /** @return how many files this JVM has open, for tests */
    static int openCount() {
        return OPEN.size();
    }
}
