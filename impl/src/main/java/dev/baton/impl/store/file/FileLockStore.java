package dev.baton.impl.store.file;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Locks in a directory shared by the processes of one machine (or of several, on a shared volume whose
 * file system has working byte-range locks): one lock file per key ({@link LockFileNames}), fencing tokens
 * from one counter file ({@link FencingCounter}).
 *
 * <h2>How a lock is held</h2>
 * Each lock file holds a record ({@link LockRecord}: key, owner, token, end of the lease) and is changed
 * only inside its <em>critical section</em>, an OS lock on one byte of the file that every operation takes
 * for the microseconds it reads and writes the record. A key is held while the record names an owner whose
 * lease runs (by the wall clock) <em>and</em> whose process is alive. Liveness is an OS lock too: the
 * acquiring process takes a one-byte region of the file that is the token's own
 * ({@link SharedFile#slotPosition}) and keeps it while it holds the key. When that process dies, also by
 * {@code kill -9}, the operating system drops the region, and the next caller, finding it free, treats the
 * key as free at once. A process that hangs (stopped, swapping, in a long GC) keeps its region but not its
 * lease: once the lease has run out, the key is free, and the next holder takes a region of its own token,
 * so the hung process's region stands in nobody's way. When the hung process comes back, its renewal and
 * release answer false (the record names another owner) and it lets go of its region.
 *
 * <p>So the rules of {@link LockStore} hold: acquire, renew and release are each one atomic step (the
 * critical section), an expired lock does not exist, renew never revives one, and tokens are drawn inside
 * the key's critical section after the check, from a counter that never goes back.
 *
 * <h2>Within this JVM</h2>
 * OS locks belong to the process, so the threads of this JVM queue on a lock of this JVM before the
 * critical section, and all store instances share one channel per file ({@link SharedFiles}): an
 * {@link java.nio.channels.OverlappingFileLockException} never reaches a caller, and a store instance that
 * is closed leaves the locks it took held for as long as this JVM lives ({@link StoreCapability#PERSISTENT}:
 * the holder can renew and release them through another instance). Interrupting a caller does not close
 * the channel (see {@link SharedFile}); the call completes and the interrupt stays set.
 *
 * <h2>Clock</h2>
 * Leases are measured with the wall clock ({@link System#currentTimeMillis()}), which the processes of one
 * machine share. Processes of several hosts on a shared volume compare leases written by each other's
 * clocks: keep those clocks synchronized (NTP) well within the ttl. A process that dies still frees its
 * keys at once, whatever the clocks say.
 *
 * <h2>Limits</h2>
 * Lock files are never deleted: deleting a file another process has open and locked would let a third
 * process lock a new file of the same name, breaking exclusion. They are small (one per key ever used) and
 * may be removed while no process uses the directory. Two copies of Baton in one JVM (two applications
 * that each bundle it) must not share a directory: OS locks cannot tell them apart.
 */
public final class FileLockStore implements LockStore {

    /** The bound of calls that come without one. */
    static final long DEFAULT_BOUND_MILLIS = 10_000;

    /** A bounded acquire still waits this long for a critical section, which lasts microseconds. */
    static final long MIN_SECTION_WAIT_MILLIS = 50;

    private static final Set<StoreCapability> CAPABILITIES =
            EnumSet.of(StoreCapability.PERSISTENT, StoreCapability.REMAINING_LEASE, StoreCapability.NUL_IN_KEYS);

    private static final long PID = ProcessHandle.current().pid();

    /** Look for lapsed locks of this JVM every this many acquisitions (see {@link #sweep()}). */
    private static final int SWEEP_EVERY = 256;

    private static final AtomicLong ACQUISITIONS = new AtomicLong();

    private final Path configured;
    private volatile Path directory;
    private volatile FencingCounter counter;
    private volatile boolean closed;

    /**
     * A store on {@code directory}, which must exist (the factory creates it). Nothing is opened until the
     * first operation.
     *
     * @param directory the lock directory
     */
    public FileLockStore(Path directory) {
        this.configured = directory.toAbsolutePath().normalize();
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis) {
        return acquire(key, owner, ttlMillis, DEFAULT_BOUND_MILLIS);
    }

    @Override
    public AcquireResult acquire(String key, String owner, long ttlMillis, long maxWaitMillis) {
        check(key, owner);
        LockArguments.requireValidTtl(ttlMillis);
        requireBound(maxWaitMillis, 0);
        if (ACQUISITIONS.incrementAndGet() % SWEEP_EVERY == 0) {
            sweep();
        }
        return inCriticalSection(
                key,
                Math.max(maxWaitMillis, MIN_SECTION_WAIT_MILLIS),
                AcquireResult::notAcquired,
                (file, now, deadline) -> {
                    LockRecord current = current(file, now);
                    if (current != null) {
                        if (!current.key().equals(key)) {
                            throw new LockStoreException("The lock file " + file + " holds a live lock of another key ("
                                    + current.key().length()
                                    + " chars) than the requested one: two keys share a hashed file name");
                        }
                        return AcquireResult.notAcquired(current.expiresAtMillis() - now);
                    }
                    long token = counter.next(deadline);
                    FileLock slot = file.tryRegion(SharedFile.slotPosition(token));
                    if (slot == null) {
                        throw new LockStoreException("The liveness region of token " + token + " in " + file
                                + " is locked by another process: has the fencing counter " + counter
                                + " been set back?");
                    }
                    try {
                        file.write(new LockRecord(key, owner, token, now + ttlMillis, PID).encode());
                    } catch (IOException | RuntimeException e) {
                        slot.release();
                        throw e;
                    }
                    file.slot = new SharedFile.Slot(token, slot, now + ttlMillis);
                    return AcquireResult.acquired(token);
                });
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis) {
        return renew(key, owner, ttlMillis, DEFAULT_BOUND_MILLIS);
    }

    @Override
    public boolean renew(String key, String owner, long ttlMillis, long maxWaitMillis) {
        check(key, owner);
        LockArguments.requireValidTtl(ttlMillis);
        requireBound(maxWaitMillis, 1);
        return inCriticalSection(
                key,
                maxWaitMillis,
                () -> {
                    throw stuck(key, maxWaitMillis);
                },
                (file, now, deadline) -> {
                    LockRecord current = current(file, now);
                    if (current == null
                            || !current.key().equals(key)
                            || !current.owner().equals(owner)) {
                        return false;
                    }
                    file.write(current.renewedUntil(now + ttlMillis).encode());
                    SharedFile.Slot own = file.slot;
                    if (own != null && own.token() == current.token()) {
                        file.slot = new SharedFile.Slot(own.token(), own.lock(), now + ttlMillis);
                    }
                    return true;
                });
    }

    @Override
    public boolean release(String key, String owner) {
        check(key, owner);
        return inCriticalSection(
                key,
                DEFAULT_BOUND_MILLIS,
                () -> {
                    throw stuck(key, DEFAULT_BOUND_MILLIS);
                },
                (file, now, deadline) -> {
                    LockRecord current = current(file, now);
                    if (current == null
                            || !current.key().equals(key)
                            || !current.owner().equals(owner)) {
                        return false;
                    }
                    file.write(new byte[0]);
                    letGoOfOwnSlot(file, null, now); // the record is gone: our region, if it is ours, guards nothing
                    return true;
                });
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        requireOpen();
        requireBound(maxWaitMillis, 1);
        long deadline = System.nanoTime() + maxWaitMillis * 1_000_000;
        Set<Lease> renewed = new HashSet<>();
        for (Lease lease : leases) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            if (renew(lease.key(), lease.owner(), ttlMillis, left)) {
                renewed.add(lease);
            }
        }
        return renewed;
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis) {
        return renewAll(leases, ttlMillis, DEFAULT_BOUND_MILLIS);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    /**
     * Makes every further operation of this instance fail. Locks taken through it stay held (by this JVM)
     * until released through another instance, until their lease runs out, or until the JVM ends.
     */
    @Override
    public void close() {
        closed = true;
    }

    /** The live lock of the file: its lease runs and its holder's process is alive; null if there is none. */
    private static LockRecord current(SharedFile file, long now) throws IOException {
        Optional<LockRecord> read =
                LockRecord.decode(file.read()).filter(r -> r.token() > 0 && r.token() <= SharedFile.MAX_TOKEN);
        LockRecord record = read.filter(r -> r.leaseRunsAt(now)).orElse(null);
        letGoOfOwnSlot(file, record, now);
        if (record == null || !holderAlive(file, record)) {
            return null;
        }
        return record;
    }

    /** Drops this JVM's liveness region in {@code file} unless {@code live} is its lock. */
    private static void letGoOfOwnSlot(SharedFile file, LockRecord live, long now) throws IOException {
        SharedFile.Slot own = file.slot;
        if (own != null && (live == null || live.token() != own.token() || !live.leaseRunsAt(now))) {
            file.slot = null;
            own.lock().release();
        }
    }

    private static boolean holderAlive(SharedFile file, LockRecord record) throws IOException {
        SharedFile.Slot own = file.slot;
        if (own != null && own.token() == record.token()) {
            return true;
        }
        FileLock probe = file.tryRegion(SharedFile.slotPosition(record.token()));
        if (probe == null) {
            return true; // another process holds the region: it is alive
        }
        probe.release(); // nobody held it: the holder's process is gone
        return false;
    }

    /** What runs inside a key's critical section. */
    private interface Section<T> {
        T run(SharedFile file, long nowMillis, long deadlineNanos) throws IOException;
    }

    /** What a call answers when it cannot enter the critical section within its bound. */
    private interface OnTimeout<T> {
        T answer();
    }

    private <T> T inCriticalSection(String key, long boundMillis, OnTimeout<T> onTimeout, Section<T> section) {
        requireOpen();
        return inCriticalSection(directory().resolve(LockFileNames.fileName(key)), boundMillis, onTimeout, section);
    }

    private static <T> T inCriticalSection(Path path, long boundMillis, OnTimeout<T> onTimeout, Section<T> section) {
        long deadline = System.nanoTime() + Math.min(boundMillis, LockArguments.MAX_DURATION_MILLIS) * 1_000_000;
        // Waits below poll; an interrupt would turn them into spins. The call is short: keep the interrupt for later.
        boolean interrupted = Thread.interrupted();
        SharedFile file = null;
        try {
            file = SharedFiles.use(path);
            if (!CriticalSection.enterThisJvm(file, deadline)) {
                return onTimeout.answer();
            }
            try {
                FileLock mutex = file.lockRegion(SharedFile.MUTEX_POSITION, deadline);
                if (mutex == null) {
                    return onTimeout.answer();
                }
                try {
                    return section.run(file, System.currentTimeMillis(), deadline);
                } finally {
                    mutex.release();
                }
            } finally {
                file.inThisJvm.unlock();
            }
        } catch (IOException e) {
            throw new LockStoreException("The file lock store could not use " + path + ": " + e, e);
        } finally {
            if (file != null) {
                SharedFiles.done(file);
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Lets go of the liveness regions of this JVM's locks whose leases are over, so that locks nobody here
     * releases (lost, abandoned) do not keep their files open. Each file is looked at in its critical
     * section, as any operation would, and skipped when that is busy: it is looked at again later.
     */
    static void sweep() {
        for (Path lapsed : SharedFiles.withLapsedSlots(System.currentTimeMillis())) {
            try {
                inCriticalSection(lapsed, 0, () -> null, (file, now, deadline) -> current(file, now));
            } catch (LockStoreException e) {
                // Only housekeeping: the next operation on the key tries again and reports its own failure.
            }
        }
    }

    private Path directory() {
        Path resolved = directory;
        if (resolved == null) {
            try {
                // The real path, so two spellings of one directory share this JVM's channels.
                resolved = configured.toRealPath();
            } catch (IOException e) {
                throw new LockStoreException("The lock directory " + configured + " cannot be used: " + e, e);
            }
            counter = new FencingCounter(resolved);
            directory = resolved;
        }
        return resolved;
    }

    private void requireOpen() {
        if (closed) {
            throw new LockStoreException("The file lock store on " + configured + " is closed");
        }
    }

    private LockStoreException stuck(String key, long boundMillis) {
        return new LockStoreException("The lock file of '" + (key.length() > 60 ? key.substring(0, 60) + "..." : key)
                + "' in " + configured + " stayed in another thread's or process's critical section for " + boundMillis
                + " ms (is a process stopped inside a store operation?)");
    }

    private static void check(String key, String owner) {
        LockArguments.requireValidKey(key, true);
        LockArguments.requireValidOwner(owner);
    }

    private static void requireBound(long maxWaitMillis, long least) {
        if (maxWaitMillis < least) {
            throw new IllegalArgumentException("maxWaitMillis must be at least " + least + ", was " + maxWaitMillis);
        }
    }

    @Override
    public String toString() {
        return "file(" + configured + ")";
    }
}
