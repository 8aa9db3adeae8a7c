package dev.baton.impl.store.file;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Locks in a directory shared by the processes of one machine (or of several, on a shared volume whose
 * file system has working byte-range locks): one lock file per key ({@link LockFileNames}), fencing tokens
 * from one counter file ({@link FencingCounter}).
 *
 * <h2>How a lock is held</h2>
 * Each lock file holds a record ({@link LockRecord}: key, owner, token, end of the lease) and is changed
 * only inside its <em>critical section</em>, an OS lock on one byte that every operation takes for the
 * microseconds it reads and writes the record. A key is held while the record names an owner whose lease
 * runs (by the wall clock) <em>and</em> whose process is alive. Liveness is an OS lock too: the acquiring
 * process takes a one-byte region that is the token's own ({@link SharedFile#slotPosition}) and keeps it
 * while it holds the key. When that process dies, also by {@code kill -9}, the operating system drops the
 * region, and the next caller, finding it free, treats the key as free at once. A process that hangs
 * (stopped, swapping, in a long GC) keeps its region but not its lease: once the lease has run out, the
 * key is free, and the next holder takes a region of its own token, so the hung process's region stands in
 * nobody's way. When the hung process comes back, its renewal and release answer false (the record names
 * another owner) and it lets go of its region.
 *
 * <h2>Locks the operating system drops by itself</h2>
 * POSIX record locks belong to the process, and closing <em>any</em> descriptor of a file drops all of the
 * process's locks on it: one {@code Files.readAllBytes} of a lock file anywhere in the holder's JVM would
 * free the key for other processes while its lease runs. So every region (critical section and liveness)
 * is locked in two files, the lock file and its companion {@code <lock file>.live}, an empty file nobody
 * has a reason to open ({@link SharedFile}): a critical section needs both, and reading either file in the
 * holder's JVM frees nothing; the holder takes its regions again at each renewal, and its renewal answers
 * false when it cannot. Something in the holder's JVM that closes a descriptor of <em>both</em> files (a backup
 * agent copying the directory) frees both regions of a process that still runs: so a key whose regions are
 * free is free only when the record's process is gone too ({@link HolderProcesses}); a live process keeps it
 * until its lease ends. Such a close inside a critical section would let another process in beside it: so the
 * process inside also creates a marker file ({@link SectionMarker}) that no close removes, and a process that gets
 * the OS lock while another live process's marker is there waits for it. What remains: a holder in another PID
 * namespace keeps its key until its lease ends even when it died.
 *
 * <h2>Removed files</h2>
 * Each operation checks, inside the critical section, that the paths still name the files this JVM has
 * open (their file keys: device and inode). A lock file (or companion) removed or replaced while a key is
 * held makes other processes use a new file of that name, in which the key looks free; so this JVM lets go
 * of what it held in the old file: the holder's renewal and release answer false, and an acquisition goes
 * on with the new file, as every other process does. Between the removal and that renewal, the key can have
 * two holders: do not remove lock files in use.
 *
 * <h2>Waiting turns and release notification</h2>
 * The record also keeps the key's next turn ({@link StoreCapability#WAITING_TURNS}): the waiter that has waited
 * longest, its start and the turn's end on the wall clock. An acquisition without the turn leaves a freed key to
 * that waiter while the turn lasts; renewals and releases keep it; taking the key ends it. A release of a key with a
 * live turn (and a turn given up) also writes one byte to the companion, which nothing else writes, so a
 * {@link java.nio.file.WatchService} on the directory tells the waiters of every process of the machine at once
 * ({@link ReleaseWatch}, {@link StoreCapability#RELEASE_NOTIFICATION}); other hosts of a shared volume are not seen
 * that way, and their releases reach waiters by polling.
 *
 * <h2>Fencing tokens</h2>
 * Tokens come from the counter file ({@link FencingCounter}), drawn inside the key's critical section after
 * the check. A release leaves the key's last token in its record (a record with no owner and no lease), and
 * an acquisition never hands out a token at or below the one its record names, so a key's tokens keep
 * increasing even when the counter file was removed or set back, as long as the key's lock file stays.
 *
 * <p>So the rules of {@link LockStore} hold: acquire, renew and release are each one atomic step (the
 * critical section), an expired lock does not exist, renew never revives one, and a key's tokens increase.
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
 * Lock files are never deleted by the store: they are small (a lock file and its companion per key ever
 * used). With no process using the directory, lock files and companions may be removed (a key whose lock
 * file is gone continues from the counter), or the counter file (each key continues above the token its
 * lock file records), but not both, or tokens can go back. A section marker exists while a process is inside
 * a critical section, or after it was killed there, until the next process removes it. Two copies of Baton in one JVM (two applications
 * that each bundle it) must not share a directory: OS locks cannot tell them apart.
 */
public final class FileLockStore implements LockStore {

    /** The bound of calls that come without one. */
    static final long DEFAULT_BOUND_MILLIS = 10_000;

    /** A bounded acquire still waits this long for a critical section, which lasts microseconds. */
    static final long MIN_SECTION_WAIT_MILLIS = 50;

    private static final Set<StoreCapability> CAPABILITIES = EnumSet.of(
            StoreCapability.PERSISTENT,
            StoreCapability.REMAINING_LEASE,
            StoreCapability.NUL_IN_KEYS,
            StoreCapability.WAITING_TURNS,
            StoreCapability.RELEASE_NOTIFICATION);

    private static final long PID = ProcessHandle.current().pid();

    /** Look for lapsed locks of this JVM every this many acquisitions (see {@link #sweep()}). */
    private static final int SWEEP_EVERY = 256;

    private static final AtomicLong ACQUISITIONS = new AtomicLong();

    /** How many hashed lock file names {@link #hashedKeys} remembers at most. */
    private static final int MAX_HASHED_KEYS = 10_000;

    private final Path configured;
    /**
     * The keys of the hashed lock file names this instance used: a release notification names a file, and only a
     * direct name tells its key ({@link LockFileNames}). A waiter asks through the store before it waits, so its
     * key is here.
     */
    private final Map<String, String> hashedKeys = new ConcurrentHashMap<>();

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

    /**
     * {@inheritDoc} The turn lives in the lock file's record beside the lock: a waiter in turn writes it at each ask
     * (its refusals by another waiter's turn, and those of a waiter without a turn, write nothing).
     */
    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        String key = acquisition.key();
        String owner = acquisition.owner();
        long ttlMillis = acquisition.ttlMillis();
        Turn turn = acquisition.turn();
        if (ACQUISITIONS.incrementAndGet() % SWEEP_EVERY == 0) {
            sweep();
        }
        return inCriticalSection(
                key,
                Math.max(acquisition.maxWaitMillisOr(DEFAULT_BOUND_MILLIS), MIN_SECTION_WAIT_MILLIS),
                AcquireResult::notAcquired,
                (file, now, deadline) -> {
                    Optional<LockRecord> recorded = recorded(file);
                    LockRecord current = current(file, recorded, now);
                    if (current != null && !current.key().equals(key)) {
                        throw new LockStoreException("The lock file " + file + " holds a live lock of another key ("
                                + current.key().length()
                                + " chars) than the requested one: two keys share a hashed file name");
                    }
                    LockRecord.Turn standing = standingTurn(recorded, key, now);
                    LockRecord.Turn claim = turn == null
                            ? null
                            : new LockRecord.Turn(turn.waiter(), now - turn.waitedMillis(), now + turn.keepMillis());
                    // Of two waiters the one waiting longer gets the turn; on a tie the one holding it keeps it.
                    boolean mayClaim = claim != null
                            && (standing == null
                                    || standing.waiter().equals(claim.waiter())
                                    || standing.sinceMillis() > claim.sinceMillis());
                    if (current != null) {
                        long remaining = current.expiresAtMillis() - now;
                        if (mayClaim) {
                            file.write(current.withTurn(claim).encode());
                            return AcquireResult.nextInTurn(remaining);
                        }
                        return AcquireResult.notAcquired(remaining);
                    }
                    if (standing != null && !mayClaim) {
                        return AcquireResult.notAcquired(); // free, but kept for the waiter whose turn it is
                    }
                    // The record keeps the key's last token, also released: never again one at or below it.
                    long token = counter.next(
                            deadline, recorded.map(LockRecord::token).orElse(0L));
                    SharedFile.Regions slot = file.tryRegion(SharedFile.slotPosition(token));
                    if (slot == null) {
                        throw new LockStoreException("The liveness region of token " + token + " in " + file
                                + " is locked by another process: has the fencing counter " + counter
                                + " been set back?");
                    }
                    try {
                        // Taking the key ends its turn.
                        file.write(
                                new LockRecord(key, owner, token, now + ttlMillis, PID, HolderProcesses.NAMESPACE, null)
                                        .encode());
                    } catch (IOException | RuntimeException e) {
                        slot.release();
                        throw e;
                    }
                    file.slot = new SharedFile.Slot(token, slot, now + ttlMillis);
                    return AcquireResult.acquired(token);
                });
    }

    /** @return the key's live turn in its record, or null (a record of another key, with the same hashed name, has none) */
    private static LockRecord.Turn standingTurn(Optional<LockRecord> recorded, String key, long now) {
        return recorded.filter(r -> r.key().equals(key))
                .map(r -> r.liveTurnAt(now))
                .orElse(null);
    }

    /** {@inheritDoc} A turn given up is told to release listeners, as a release is: the next waiter may claim it. */
    @Override
    public boolean leaveTurn(String key, String waiter) {
        return inCriticalSectionOrStuck(key, (file, now, deadline) -> {
            Optional<LockRecord> recorded = recorded(file);
            LockRecord.Turn standing = standingTurn(recorded, key, now);
            if (standing == null || !standing.waiter().equals(waiter)) {
                return false;
            }
            file.write(recorded.orElseThrow().withTurn(null).encode());
            file.signalRelease();
            return true;
        });
    }

    @Override
    public boolean renew(Renewal renewal) {
        String key = renewal.key();
        String owner = renewal.owner();
        long ttlMillis = renewal.ttlMillis();
        long maxWaitMillis = renewal.maxWaitMillisOr(DEFAULT_BOUND_MILLIS);
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
                    SharedFile.Slot own = file.slot;
                    if (own != null && own.token() == current.token()) {
                        // Something in this JVM may have closed a descriptor of the files, dropping our regions.
                        SharedFile.Regions regions = file.reassert(own.regions(), SharedFile.slotPosition(own.token()));
                        if (regions == null) {
                            file.slot = null;
                            return false; // another process holds our region: it took us for dead
                        }
                        file.slot = new SharedFile.Slot(own.token(), regions, now + ttlMillis);
                    }
                    file.write(current.renewedUntil(now + ttlMillis).encode());
                    return true;
                });
    }

    @Override
    public boolean release(String key, String owner) {
        return inCriticalSectionOrStuck(key, (file, now, deadline) -> {
            LockRecord current = current(file, now);
            if (current == null
                    || !current.key().equals(key)
                    || !current.owner().equals(owner)) {
                return false;
            }
            file.write(current.released().encode()); // keeps the key's last token and its turn
            letGoOfOwnSlot(file, null, now); // the record is gone: our region, if it is ours, guards nothing
            if (current.liveTurnAt(now) != null) {
                // Only a release somebody waits for is told: a waiting runtime keeps the key's turn.
                file.signalRelease();
            }
            return true;
        });
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        requireOpen();
        long bound = LockArguments.boundOr(maxWaitMillis, DEFAULT_BOUND_MILLIS);
        long deadline = System.nanoTime() + bound * 1_000_000;
        Set<Lease> renewed = new HashSet<>();
        for (Lease lease : leases) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            if (renew(new Renewal(lease.key(), lease.owner(), ttlMillis, left))) {
                renewed.add(lease);
            }
        }
        return renewed;
    }

    /**
     * {@inheritDoc} A release of a key with a live waiter's turn (and a turn given up) writes a byte to the lock file's
     * companion, which no other operation writes (a release nobody waits for in turn writes nothing more); a {@link java.nio.file.WatchService} on the lock directory sees it, on this machine, from
     * any process. Where the file system does not report changes made by other hosts (a volume shared between
     * hosts), their releases are not told and waiters learn of them by polling.
     */
    @Override
    public AutoCloseable onRelease(Consumer<String> listener) {
        requireOpen();
        return ReleaseWatch.subscribe(directory(), this::keyOfFile, listener);
    }

    /** @return the key of a lock file name, or null when it is hashed and this instance never used it */
    private String keyOfFile(String lockFileName) {
        String key = LockFileNames.keyOf(lockFileName);
        return key != null ? key : hashedKeys.get(lockFileName);
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

    /** The record of the file, live or not; empty if there is none. */
    private static Optional<LockRecord> recorded(SharedFile file) throws IOException {
        // Token 0: a key never taken, whose record only keeps a waiter's turn.
        return LockRecord.decode(file.read())
                .filter(r -> r.token() >= 0
                        && r.token() <= SharedFile.MAX_TOKEN
                        && (r.token() > 0 || r.owner().isEmpty()));
    }

    private static LockRecord current(SharedFile file, long now) throws IOException {
        return current(file, recorded(file), now);
    }

    /** The live lock of the file: its lease runs and its holder's process is alive; null if there is none. */
    private static LockRecord current(SharedFile file, Optional<LockRecord> recorded, long now) throws IOException {
        LockRecord record = recorded.filter(r -> r.leaseRunsAt(now)).orElse(null);
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
            own.regions().release();
        }
    }

    private static boolean holderAlive(SharedFile file, LockRecord record) throws IOException {
        SharedFile.Slot own = file.slot;
        if (own != null && own.token() == record.token()) {
            return true;
        }
        SharedFile.Regions probe = file.tryRegion(SharedFile.slotPosition(record.token()));
        if (probe == null) {
            return true; // another process holds the region in one of the files at least: it is alive
        }
        probe.release();
        // Nobody holds it in either file: the holder's process is gone, or something in it closed a descriptor of
        // both files (a backup agent reading the directory), which drops a process's locks. Its process id tells.
        return HolderProcesses.mayRun(record);
    }

    /** What runs inside a key's critical section. */
    private interface Section<T> {
        T run(SharedFile file, long nowMillis, long deadlineNanos) throws IOException;
    }

    /** What a call answers when it cannot enter the critical section within its bound. */
    private interface OnTimeout<T> {
        T answer();
    }

    /** A call that comes without a bound of the caller's: the store's own, and a failure past it. */
    private <T> T inCriticalSectionOrStuck(String key, Section<T> section) {
        return inCriticalSection(
                key,
                DEFAULT_BOUND_MILLIS,
                () -> {
                    throw stuck(key, DEFAULT_BOUND_MILLIS);
                },
                section);
    }

    private <T> T inCriticalSection(String key, long boundMillis, OnTimeout<T> onTimeout, Section<T> section) {
        requireOpen();
        String name = LockFileNames.fileName(key);
        if (!LockFileNames.isDirect(name)
                && hashedKeys.putIfAbsent(name, key) == null
                && hashedKeys.size() > MAX_HASHED_KEYS) {
            hashedKeys.clear(); // a bound on memory: releases of keys forgotten here reach their waiters by polling
        }
        return inCriticalSection(directory().resolve(name), boundMillis, onTimeout, section);
    }

    private static <T> T inCriticalSection(Path path, long boundMillis, OnTimeout<T> onTimeout, Section<T> section) {
        long deadline = System.nanoTime() + Math.min(boundMillis, LockArguments.MAX_DURATION_MILLIS) * 1_000_000;
        // Waits below poll; an interrupt would turn them into spins. The call is short: keep the interrupt for later.
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                SharedFile file = SharedFiles.use(path);
                try {
                    if (!CriticalSection.enterThisJvm(file, deadline)) {
                        return onTimeout.answer();
                    }
                    try {
                        SharedFile.Regions mutex = file.lockRegion(SharedFile.MUTEX_POSITION, deadline);
                        if (mutex == null) {
                            return onTimeout.answer();
                        }
                        try {
                            // A close in this JVM can drop the OS lock unseen; the marker stays (SectionMarker).
                            if (!SectionMarker.enter(path, deadline)) {
                                return onTimeout.answer();
                            }
                            try {
                                if (file.stillNamed()) {
                                    return section.run(file, System.currentTimeMillis(), deadline);
                                }
                                // The file was removed or replaced: other processes use the one the path names
                                // now, so a lock of ours in this one is lost (its renewal and release answer false).
                                letGoOfOwnSlot(file, null, 0);
                                file.replaced = true;
                            } finally {
                                SectionMarker.leave(path);
                            }
                        } finally {
                            mutex.release();
                        }
                    } finally {
                        file.inThisJvm.unlock();
                    }
                } finally {
                    SharedFiles.done(file);
                }
            }
        } catch (IOException e) {
            throw new LockStoreException("The file lock store could not use " + path + ": " + e, e);
        } finally {
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

    @Override
    public String toString() {
        return "file(" + configured + ")";
    }
}
