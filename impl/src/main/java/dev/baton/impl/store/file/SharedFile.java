package dev.baton.impl.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This JVM's open channels on a lock file and on its companion ({@code <lock file>.live}), with the lock that
 * lets one thread of this JVM at a time into the file's critical section, and the liveness region this JVM
 * holds while one of its owners holds the key. (The fencing counter is a {@code SharedFile} too.)
 *
 * <p><b>One channel per file per JVM</b>, for two reasons. OS file locks belong to the process: a second
 * channel's {@code tryLock} on a region this JVM holds throws {@link OverlappingFileLockException}; and on
 * POSIX systems closing <em>any</em> descriptor of a file drops every lock the process holds on it. So
 * {@link SharedFiles} hands out one {@code SharedFile} per path and closes its channels only when no thread
 * uses it and it holds no liveness region.
 *
 * <p><b>Every region in two files.</b> Closing a descriptor that something else in this JVM opened drops
 * our locks all the same: one {@code Files.readAllBytes} of the lock file (a diagnostic page, a log
 * shipper) would free the key for other processes while its holder lives and its lease runs. So each
 * region is locked in the lock file <em>and</em> in its companion, an empty file nobody has a reason to
 * read: a critical section is entered only with both, and a holder is taken for dead only when both of its
 * liveness regions are free. A read of one of the two files drops nothing that matters; the holder
 * re-asserts its regions at each renewal ({@link #reassert}). (Processes of older versions, which lock only
 * the lock file, are still excluded by the lock file's regions.)
 *
 * <p><b>Which file.</b> The file key (device and inode) of each file is noted when it is opened, and
 * {@link #stillNamed()} tells whether the paths still name those files: after a lock file was removed (or
 * replaced), other processes use a new file of that name, and what this JVM holds in the old one guards
 * nothing.
 *
 * <p><b>Why an {@link AsynchronousFileChannel}</b>: a {@code FileChannel} is closed when a thread using it
 * is interrupted, which would drop the locks of every holder in this JVM at once and let other processes
 * take their keys. An asynchronous channel is not closed by interrupts; its reads and writes are waited
 * for here without giving in to them (the interrupt is kept for the caller).
 *
 * <p><b>Regions.</b> The record lives at the start of the lock file. Locks are taken on single bytes far
 * beyond it (allowed past the end of a file), so that on Windows, where locks are mandatory, they never
 * block reading the record: {@link #MUTEX_POSITION} is the critical section of every operation on the
 * file; {@link #slotPosition(long)} is the liveness region of the acquisition with that token, held by its
 * process for as long as its lease may run.
 */
final class SharedFile {

    /** The critical section: one operation on the file at a time, across processes. */
    static final long MUTEX_POSITION = 1L << 40;

    private static final long SLOT_BASE = 1L << 41;

    /** The highest token whose liveness region still has a position. */
    static final long MAX_TOKEN = Long.MAX_VALUE - SLOT_BASE - 1;

    /** What the companion's name adds to its lock file's. */
    static final String COMPANION_SUFFIX = ".live";

    private static final int MAX_RECORD_BYTES = 8192;

    private static final byte[] RELEASED = {'r'};

    /**
     * A liveness region held by this JVM: the key's current holder, if the record still names its token.
     *
     * @param expiresAtMillis the lease's end as this JVM last wrote it: when it has passed, {@link SharedFiles}
     *     looks at the file again, so a lock nobody here releases does not keep its file open forever
     */
    record Slot(long token, Regions regions, long expiresAtMillis) {}

    /** One region, held in the lock file and in its companion. */
    record Regions(FileLock inFile, FileLock inCompanion) {

        void release() throws IOException {
            try {
                inCompanion.release();
            } finally {
                inFile.release();
            }
        }
    }

    final Path path;
    final ReentrantLock inThisJvm = new ReentrantLock();
    private final Opened file;
    private final Opened companion;
    /** Threads between {@link SharedFiles#use} and {@link SharedFiles#done}; guarded by the registry. */
    int users;
    /** Written only by a thread inside the critical section; read by the registry when no one is. */
    volatile Slot slot;
    /** Set inside the critical section once the path names another file: the registry hands this one out no more. */
    volatile boolean replaced;

    private SharedFile(Path path, Opened file, Opened companion) {
        this.path = path;
        this.file = file;
        this.companion = companion;
    }

    /**
     * Opens {@code path} and its companion, creating them.
     *
     * @param path an absolute, real path
     * @return the file
     * @throws IOException if either cannot be opened
     */
    static SharedFile open(Path path) throws IOException {
        Opened file = Opened.of(path);
        try {
            return new SharedFile(path, file, Opened.of(companion(path)));
        } catch (IOException | RuntimeException e) {
            file.channel.close();
            throw e;
        }
    }

    /** @return the companion of the lock file {@code path}: it holds the same regions, and nothing else */
    static Path companion(Path path) {
        return path.resolveSibling(path.getFileName() + COMPANION_SUFFIX);
    }

    /**
     * @return whether the path and the companion's path still name the files this JVM opened (always true
     *     where the file system has no file keys)
     */
    boolean stillNamed() throws IOException {
        return file.isStillAt(path) && companion.isStillAt(companion(path));
    }

    /** @return the position of the liveness region of the acquisition with {@code token} */
    static long slotPosition(long token) {
        return SLOT_BASE + token;
    }

    /**
     * Takes a one-byte region, polling until {@code deadlineNanos}.
     *
     * @return the region, or null if another process held it until the deadline
     */
    Regions lockRegion(long position, long deadlineNanos) throws IOException {
        long pause = 20_000;
        while (true) {
            Regions lock = tryRegion(position);
            if (lock != null) {
                return lock;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            // Critical sections last microseconds: poll briefly, backing off to 2 ms.
            LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, 2_000_000);
        }
    }

    /**
     * Tries a one-byte region once, in both files.
     *
     * @return the region, or null if another process (or another copy of Baton in this JVM) holds it in
     *     either file
     */
    Regions tryRegion(long position) throws IOException {
        FileLock inCompanion = tryRegion(companion.channel, position);
        if (inCompanion == null) {
            return null;
        }
        FileLock inFile;
        try {
            inFile = tryRegion(file.channel, position);
        } catch (IOException | RuntimeException e) {
            inCompanion.release();
            throw e;
        }
        if (inFile == null) {
            inCompanion.release();
            return null;
        }
        return new Regions(inFile, inCompanion);
    }

    /**
     * Takes a region this JVM holds once more: the operating system may have dropped it silently, when
     * something in this JVM closed a descriptor of one of the files. Called inside the critical section,
     * where no other process probes the region.
     *
     * @return the region, or null if another process holds it now
     */
    Regions reassert(Regions held, long position) throws IOException {
        held.release();
        return tryRegion(position);
    }

    private static FileLock tryRegion(AsynchronousFileChannel channel, long position) throws IOException {
        try {
            return channel.tryLock(position, 1, false);
        } catch (OverlappingFileLockException e) {
            return null; // held through another channel of this JVM: another class loader's Baton
        }
    }

    byte[] read() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(MAX_RECORD_BYTES);
        while (buffer.hasRemaining()) {
            int n = await(file.channel.read(buffer, buffer.position()));
            if (n < 0) {
                break;
            }
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    /** Replaces the file's content with {@code data}. */
    void write(byte[] data) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(data);
        while (buffer.hasRemaining()) {
            await(file.channel.write(buffer, buffer.position()));
        }
        file.channel.truncate(data.length);
    }

    /**
     * Tells watchers of the directory that the key was released: one byte written to the companion through this
     * JVM's own channel (no descriptor opened or closed, so no lock dropped), which nothing else writes. The
     * companion keeps no data: the byte only changes the file ({@link ReleaseWatch}).
     */
    void signalRelease() throws IOException {
        await(companion.channel.write(ByteBuffer.wrap(RELEASED), 0));
    }

    /** Makes the content durable: for the fencing counter, which must not go back after a power loss. */
    void force() throws IOException {
        file.channel.force(false);
    }

    void close() throws IOException {
        try {
            companion.channel.close();
        } finally {
            file.channel.close();
        }
    }

    /** Waits for an I/O without giving in to interrupts (see the class comment); keeps the interrupt. */
    private static int await(Future<Integer> io) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return io.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof IOException io2 ? io2 : new IOException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A channel with the file key of the file it is open on (null where the file system has none). */
    private record Opened(AsynchronousFileChannel channel, Object key) {

        /** Opens {@code path}, creating it; a file replaced while it was being opened is not taken for it. */
        static Opened of(Path path) throws IOException {
            while (true) {
                Object before;
                try {
                    before = keyOf(path);
                } catch (NoSuchFileException e) {
                    create(path);
                    continue;
                }
                AsynchronousFileChannel channel;
                try {
                    channel = AsynchronousFileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
                } catch (NoSuchFileException e) {
                    continue; // removed meanwhile
                }
                if (isAt(before, path)) {
                    return new Opened(channel, before);
                }
                channel.close(); // this JVM holds no lock in a file it is only opening
            }
        }

        boolean isStillAt(Path path) throws IOException {
            return isAt(key, path);
        }

        private static boolean isAt(Object key, Path path) throws IOException {
            try {
                return Objects.equals(key, keyOf(path));
            } catch (NoSuchFileException e) {
                return false;
            }
        }

        private static Object keyOf(Path path) throws IOException {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey(); // a stat: no descriptor to close
        }

        private static void create(Path path) throws IOException {
            try {
                Files.createFile(path); // a new file: closing its descriptor drops no lock of ours
            } catch (FileAlreadyExistsException e) {
                // created by another process meanwhile
            }
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
