package dev.baton.impl.store.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The second guard of a lock file's critical section: {@code <lock file>.section}, a file the process inside
 * creates exclusively ({@code O_EXCL}), naming itself, and removes when it leaves.
 *
 * <p><b>Why the OS lock is not enough.</b> The critical section is an OS lock on one byte of the lock file
 * and of its companion, and POSIX drops all of a process's locks on a file whenever anything in that process
 * closes a descriptor of it. A backup or monitoring agent in the holder's JVM that reads both files while one
 * of its threads is inside the section drops both regions: another process then takes the section too, both
 * read the key as free, and both take it. A file created with {@code O_EXCL} is not dropped by any close, so
 * a process that holds the OS lock and finds another process's marker knows that process is still inside
 * with its lock lost, and waits for it to leave.
 *
 * <p><b>Markers left behind.</b> A process killed inside the section loses its OS lock but leaves its marker.
 * The marker names the process (id, PID namespace and start time), so the next process removes it as soon as
 * it finds that process gone, or its id reused by another process. Any marker is taken for left behind once
 * {@link #STALE_MILLIS} old, also one it cannot judge (of a process of another PID namespace, or whose content
 * was never written). A marker of this very JVM
 * is left behind by a failed removal: no other thread of this JVM is inside (they queue on the file's lock
 * of this JVM first).
 *
 * <p>Markers are looked at only by a process that holds the OS lock, so two processes never remove a marker
 * at once, unless both had their locks dropped in the same instant.
 */
final class SectionMarker {

    /** What a marker's name adds to its lock file's. */
    static final String SUFFIX = ".section";

    /**
     * The age at which any marker counts as left behind: sections last microseconds to milliseconds, and a
     * process whose OS lock was dropped stays inside this long only if it is also stopped.
     */
    static final long STALE_MILLIS = 30_000;

    /** Two readings of one process's start time differ by less than this (they come from clock ticks). */
    private static final long START_TOLERANCE_MILLIS = 1_000;

    private static final long PID = ProcessHandle.current().pid();

    private static final long STARTED = ProcessHandle.current()
            .info()
            .startInstant()
            .map(Instant::toEpochMilli)
            .orElse(-1L);

    private static final byte[] SELF =
            (PID + " " + HolderProcesses.NAMESPACE + " " + STARTED + "\n").getBytes(StandardCharsets.US_ASCII);

    private SectionMarker() {}

    /** @return the marker of the lock file {@code lockFile} */
    static Path of(Path lockFile) {
        return lockFile.resolveSibling(lockFile.getFileName() + SUFFIX);
    }

    /**
     * Creates this process's marker for {@code lockFile}, waiting while another live process's marker is there.
     * Called with the section's OS lock held.
     *
     * @param lockFile the lock file
     * @param deadlineNanos when to give up
     * @return whether the marker is ours now; false if another process's stayed until the deadline
     * @throws IOException if the directory cannot be used
     */
    static boolean enter(Path lockFile, long deadlineNanos) throws IOException {
        Path marker = of(lockFile);
        long pause = 20_000;
        while (true) {
            if (tryCreate(marker)) {
                return true;
            }
            if (leftBehind(marker)) {
                Files.deleteIfExists(marker);
                continue;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            // Its process lost its OS lock inside a section of microseconds: poll briefly, backing off to 2 ms.
            LockSupport.parkNanos(Math.min(pause, left));
            pause = Math.min(pause * 2, 2_000_000);
        }
    }

    /**
     * Removes this process's marker: the section is over.
     *
     * @param lockFile the lock file
     * @throws IOException if it cannot be removed (it would keep other processes out until this JVM next enters)
     */
    static void leave(Path lockFile) throws IOException {
        try {
            Files.delete(of(lockFile));
        } catch (NoSuchFileException e) {
            // Removed as left behind: only after this process was judged gone, which it is not; nothing to undo.
        }
    }

    private static boolean tryCreate(Path marker) throws IOException {
        try {
            Files.write(marker, SELF, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            Files.deleteIfExists(marker); // created, but its content could not be written: it names no one
            throw e;
        }
    }

    /** @return whether the marker names a process that is gone, or this JVM; false if it is gone itself */
    private static boolean leftBehind(Path marker) throws IOException {
        String[] fields;
        long modified;
        try {
            modified = Files.getLastModifiedTime(marker).toMillis();
            fields = new String(Files.readAllBytes(marker), StandardCharsets.US_ASCII)
                    .trim()
                    .split(" ");
        } catch (NoSuchFileException e) {
            return false; // removed meanwhile: create it again
        }
        if (System.currentTimeMillis() - modified > STALE_MILLIS) {
            return true;
        }
        if (fields.length != 3 || !fields[1].equals(HolderProcesses.NAMESPACE)) {
            return false; // not yet written, or of a process of another PID namespace: only its age tells
        }
        long pid;
        long started;
        try {
            pid = Long.parseLong(fields[0]);
            started = Long.parseLong(fields[2]);
        } catch (NumberFormatException e) {
            return false;
        }
        if (pid == PID && started == STARTED) {
            return true; // this JVM's, left by a removal that failed: no thread of ours is inside
        }
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .map(p -> started >= 0
                        && p.info()
                                .startInstant()
                                .map(at -> Math.abs(at.toEpochMilli() - started) > START_TOLERANCE_MILLIS)
                                .orElse(false))
                .orElse(true);
    }
}
