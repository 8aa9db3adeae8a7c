package dev.baton.impl.store.file;

import dev.baton.LockStoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The store-wide fencing counter: one file in the lock directory holding the last token handed out, read,
 * incremented and written back under its own OS lock (and its own lock of this JVM), and forced to disk
 * before the token is used, so tokens never go back: not across processes, not across restarts, not after
 * a power loss. Each draw is also floored by the key's last token, which the key's lock file keeps: a key's
 * tokens go on increasing after this file was removed or set back.
 *
 * <p>Its critical section has no {@link SectionMarker}: a read of this file and its companion in a JVM inside a draw
 * can let two processes draw at once, so two keys may get one token, and the file may be set back by one write. A
 * key's tokens still increase, because the draw is floored by the key's last token and made inside the key's
 * critical section, which the marker guards; tokens are a key's, not the store's.
 */
final class FencingCounter {

    /** The counter file's name: it can never be a lock file's ({@link LockFileNames}). */
    static final String FILE_NAME = "fencing-counter";

    /**
     * Every draw may wait this long for other draws, even inside a call with a shorter bound: a draw takes
     * a fraction of a millisecond, so only a process stopped inside one holds the counter longer, and that
     * is reported, not taken for a held key.
     */
    private static final long MIN_WAIT_NANOS = 1_000_000_000L;

    private final Path path;

    FencingCounter(Path directory) {
        this.path = directory.resolve(FILE_NAME);
    }

    /**
     * Draws the next token. Called inside a key's critical section, so tokens follow the order in which
     * the key was taken.
     *
     * @param callDeadlineNanos when the call's bound runs out; the draw waits at least {@link #MIN_WAIT_NANOS}
     * @param keyFloor the key's last token (0 if none): the token drawn is above it, also when the counter
     *     file was removed or set back
     * @return the token, positive
     * @throws IOException if the file cannot be used
     * @throws LockStoreException if it stays locked past the deadline, or holds something else than a counter
     */
    long next(long callDeadlineNanos, long keyFloor) throws IOException {
        long floor = System.nanoTime() + MIN_WAIT_NANOS;
        long deadlineNanos = callDeadlineNanos - floor < 0 ? floor : callDeadlineNanos;
        SharedFile file = SharedFiles.use(path);
        try {
            if (!CriticalSection.enterThisJvm(file, deadlineNanos)) {
                throw stuck();
            }
            try {
                SharedFile.Regions section = file.lockRegion(SharedFile.MUTEX_POSITION, deadlineNanos);
                if (section == null) {
                    throw stuck();
                }
                try {
                    long next = Math.max(parse(file.read()), keyFloor) + 1;
                    if (next > SharedFile.MAX_TOKEN) {
                        throw new LockStoreException("The fencing counter " + path + " is exhausted at " + (next - 1));
                    }
                    file.write(String.format("%019d\n", next).getBytes(StandardCharsets.US_ASCII));
                    file.force();
                    return next;
                } finally {
                    section.release();
                }
            } finally {
                file.inThisJvm.unlock();
            }
        } finally {
            SharedFiles.done(file);
        }
    }

    private long parse(byte[] data) {
        String text = new String(data, StandardCharsets.US_ASCII).trim();
        if (text.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            // Never start again from 0: that could repeat tokens a resource has already seen.
            throw new LockStoreException(
                    "The fencing counter " + path + " holds '" + text.substring(0, Math.min(40, text.length()))
                            + "', not a number: restore it to at least the highest token handed out",
                    e);
        }
    }

    private LockStoreException stuck() {
        return new LockStoreException(
                "The fencing counter " + path
                        + " stayed locked by another thread or process past the call's bound (is a process stopped inside a store operation?)");
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
