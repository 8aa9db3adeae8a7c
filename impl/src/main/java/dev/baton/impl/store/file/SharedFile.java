package dev.baton.impl.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This JVM's one open channel on a lock file (or the counter file), with the lock that lets one thread of
 * this JVM at a time into the file's critical section, and the liveness region this JVM holds in it while
 * one of its owners holds the key.
 *
 * <p><b>One channel per file per JVM</b>, for two reasons. OS file locks belong to the process: a second
 * channel's {@code tryLock} on a region this JVM holds throws {@link OverlappingFileLockException}; and on
 * POSIX systems closing <em>any</em> descriptor of a file drops every lock the process holds on it. So
 * {@link SharedFiles} hands out one {@code SharedFile} per path and closes its channel only when no thread
 * uses it and it holds no liveness region.
 *
 * <p><b>Why an {@link AsynchronousFileChannel}</b>: a {@code FileChannel} is closed when a thread using it
 * is interrupted, which would drop the locks of every holder in this JVM at once and let other processes
 * take their keys. An asynchronous channel is not closed by interrupts; its reads and writes are waited
 * for here without giving in to them (the interrupt is kept for the caller).
 *
 * <p><b>Regions.</b> The record lives at the start of the file. Locks are taken on single bytes far
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

    private static final int MAX_RECORD_BYTES = 8192;

    /**
     * A liveness region held by this JVM: the key's current holder, if the record still names its token.
     *
     * @param expiresAtMillis the lease's end as this JVM last wrote it: when it has passed, {@link SharedFiles}
     *     looks at the file again, so a lock nobody here releases does not keep its file open forever
     */
    record Slot(long token, FileLock lock, long expiresAtMillis) {}

    final Path path;
    final ReentrantLock inThisJvm = new ReentrantLock();
    private final AsynchronousFileChannel channel;
    /** Threads between {@link SharedFiles#use} and {@link SharedFiles#done}; guarded by the registry. */
    int users;
    /** Written only by a thread inside the critical section; read by the registry when no one is. */
    volatile Slot slot;

    SharedFile(Path path) throws IOException {
        this.path = path;
        this.channel = AsynchronousFileChannel.open(
                path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** @return the position of the liveness region of the acquisition with {@code token} */
    static long slotPosition(long token) {
        return SLOT_BASE + token;
    }

    /**
     * Takes a one-byte region, polling until {@code deadlineNanos}.
     *
     * @return the lock, or null if another process held the region until the deadline
     */
    FileLock lockRegion(long position, long deadlineNanos) throws IOException {
        long pause = 20_000;
        while (true) {
            FileLock lock = tryRegion(position);
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
     * Tries a one-byte region once.
     *
     * @return the lock, or null if another process (or another copy of Baton in this JVM) holds it
     */
    FileLock tryRegion(long position) throws IOException {
        try {
            return channel.tryLock(position, 1, false);
        } catch (OverlappingFileLockException e) {
            return null; // held through another channel of this JVM: another class loader's Baton
        }
    }

    byte[] read() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(MAX_RECORD_BYTES);
        while (buffer.hasRemaining()) {
            int n = await(channel.read(buffer, buffer.position()));
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
            await(channel.write(buffer, buffer.position()));
        }
        channel.truncate(data.length);
    }

    /** Makes the content durable: for the fencing counter, which must not go back after a power loss. */
    void force() throws IOException {
        channel.force(false);
    }

    void close() throws IOException {
        channel.close();
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

    @Override
    public String toString() {
        return path.toString();
    }
}
