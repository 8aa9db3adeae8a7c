package dev.baton.impl.engine;

import dev.baton.LockAlreadyHeldException;
import dev.baton.LockException;
import dev.baton.LockInterruptedException;
import dev.baton.LockLostException;
import dev.baton.LockStoreException;
import dev.baton.LockTimeoutException;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.time.EngineTime;
import dev.baton.spi.Acquisition;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.KeyFormat;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One lock manager's runtime: acquires (waiting locally, then polling the store), renews and releases
 * locks of one {@link LockStore}. No CDI in here; the CDI layer wires it and listens.
 *
 * <p>Waiting: the threads of this JVM that want the same key queue on a {@link KeyGate}; only the first
 * talks to the store, the others wait for a local release, which hands the key over at once. The
 * contender polls the store with exponential backoff and jitter (the manager's {@link PollPolicy}, or the
 * caller's), never sleeping past the holder's remaining lease when the store reports it, and is woken at
 * once by the store's release notification where there is one. The acquisition paths themselves are in
 * {@link Acquisitions}.
 *
 * <p>Each store call gets its bound: an acquisition what is left of the caller's timeout (0 when it
 * tries once), a renewal what is left of the lease. A lease counts from when the acquisition was sent;
 * an answer that comes back after that lease has already ended (a store that took longer than the ttl)
 * is not handed out: the acquisition is given back to the store and counts as not acquired.
 *
 * <p>Renewal and loss: see {@link Renewals}. The holder is told of a loss ({@code whenLost()}
 * callbacks, the listener's events) on the store-call executor, never on the scheduler, which only
 * keeps time.
 *
 * <p>Shutdown ({@link #closeAll}): no new acquisitions; every holder is told its lock is lost (and
 * interrupted where configured); each lock is released as its work ends, waiting at most the grace
 * period; then a lock still open is left to expire by its lease (renewals stop; it is not released,
 * so no other process takes it while its work may still write). Baton cannot tell whether the work
 * under a lock kept open with {@code acquire()} has ended, so it is treated the same: an application
 * that wants it given back at once closes it when told ({@code whenLost()}).
 *
 * <p>What stays here (about 380 lines of code, the rest javadoc) is what the held locks, the gates, the
 * closed flag and the release subscription are shared by: the public entry points, release, extend, keep,
 * loss and shutdown. Splitting them further would hand those fields around rather than hide them.
 */
public final class LockEngine implements AutoCloseable {

    private final ManagerSettings settings;
    private final LockStore store;
    private final LockListener listener;
    private final boolean nulAllowed;
    /** Whether the store keeps shared leases (read locks, permits). */
    private final boolean sharedLocks;
    /**
     * Whether the store hands a released key over to the next waiter of this JVM in the release's call; a store may
     * declare it only once connected, so it is looked up until a release has been answered ({@link #handsOver}).
     */
    private volatile boolean handOver;
    /** Whether {@link #handOver} is final: the store had answered a release when it was read. */
    private volatile boolean handOverSettled;

    private final Polling polling;
    /** The keys in use here, and through their gates the locks held. */
    private final KeyGates gates = new KeyGates();

    private final Acquisitions acquisitions;
    private final Renewals renewals;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Completed when {@link #closeAll} has finished with this engine (its store is closed). */
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();

    private final AtomicReference<AutoCloseable> subscription = new AtomicReference<>();
    /** Where the holders are told of losses: user code, so not on the scheduler. */
    private final Executor notifications;

    private final EngineMetrics metrics;
    private final EngineTime time;
    /** How this engine's log lines write keys ({@code baton.log.keys}). */
    private final KeyFormat logKeys;

    /**
     * @param settings the manager's settings
     * @param store the store; the engine closes it on {@link #close()}
     * @param scheduler keeps the time of renewals and lease ends (short tasks only); not shut down by the engine
     * @param storeCalls runs the renewal calls to the store, which may block, and tells holders of losses
     *     ({@code whenLost()} callbacks, {@link LockListener#lost}); not shut down by the engine
     * @param listener told of acquisitions, releases and losses
     */
    public LockEngine(
            ManagerSettings settings,
            LockStore store,
            ScheduledExecutorService scheduler,
            Executor storeCalls,
            LockListener listener) {
        this(settings, store, scheduler, storeCalls, listener, EngineMetrics.NONE);
    }

    /**
     * @param settings the manager's settings
     * @param store the store; the engine closes it on {@link #close()}
     * @param scheduler keeps the time of renewals and lease ends (short tasks only); not shut down by the engine
     * @param storeCalls runs the renewal calls to the store and tells holders of losses; not shut down by the engine
     * @param listener told of acquisitions, releases and losses
     * @param metrics told what happens, for metrics
     */
    public LockEngine(
            ManagerSettings settings,
            LockStore store,
            ScheduledExecutorService scheduler,
            Executor storeCalls,
            LockListener listener,
            EngineMetrics metrics) {
        this(settings, store, EngineTime.system(scheduler), storeCalls, listener, metrics);
    }

    /**
     * @param settings the manager's settings
     * @param store the store; the engine closes it on {@link #close()}
     * @param time the clock, timers and timed waits: renewals, lease ends, poll pauses, timeouts
     * @param storeCalls runs the renewal calls to the store and tells holders of losses; not shut down by the engine
     * @param listener told of acquisitions, releases and losses
     * @param metrics told what happens, for metrics
     */
    public LockEngine(
            ManagerSettings settings,
            LockStore store,
            EngineTime time,
            Executor storeCalls,
            LockListener listener,
            EngineMetrics metrics) {
        this(settings, store, time, storeCalls, listener, metrics, KeyFormat.PLAIN);
    }

    /**
     * @param settings the manager's settings
     * @param store the store; the engine closes it on {@link #close()}
     * @param time the clock, timers and timed waits: renewals, lease ends, poll pauses, timeouts
     * @param storeCalls runs the renewal calls to the store and tells holders of losses; not shut down by the engine
     * @param listener told of acquisitions, releases and losses
     * @param metrics told what happens, for metrics
     * @param logKeys how its log lines write keys ({@code baton.log.keys})
     */
    public LockEngine(
            ManagerSettings settings,
            LockStore store,
            EngineTime time,
            Executor storeCalls,
            LockListener listener,
            EngineMetrics metrics,
            KeyFormat logKeys) {
        this.logKeys = logKeys;
        this.metrics = metrics;
        this.settings = settings;
        this.store = store;
        this.listener = listener;
        this.time = time;
        Set<StoreCapability> capabilities = store.capabilities();
        this.nulAllowed = capabilities.contains(StoreCapability.NUL_IN_KEYS);
        this.sharedLocks = capabilities.contains(StoreCapability.SHARED_LOCKS);
        boolean turns = capabilities.contains(StoreCapability.WAITING_TURNS);
        this.polling = new Polling(turns);
        this.notifications = storeCalls;
        this.acquisitions = new Acquisitions(this, store, time, gates, polling, turns, storeCalls, metrics);
        this.renewals = new Renewals(
                store,
                settings,
                time,
                storeCalls,
                capabilities.contains(StoreCapability.BATCH_RENEW),
                gates.held(),
                this::lose,
                metrics);
    }

    /**
     * @return the manager's name, empty for the default
     */
    public String name() {
        return settings.name();
    }

    /** @return how log lines about this engine's locks write keys ({@code baton.log.keys}) */
    public KeyFormat logKeys() {
        return logKeys;
    }

    /** @return the renewals of the engine's held locks */
    Renewals renewals() {
        return renewals;
    }

    /** @return whether the engine is shut down (or shutting down): no new acquisitions */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * @return the engine's clock, timers and timed waits: {@link System#nanoTime()} in production; the clock of
     *     {@link HeldLock#keepUntil}
     */
    public EngineTime time() {
        return time;
    }

    /**
     * @return the manager's settings
     */
    public ManagerSettings settings() {
        return settings;
    }

    /**
     * @return the store
     */
    public LockStore store() {
        return store;
    }

    /**
     * Acquires a lock, waiting up to {@code timeoutMillis} unless {@code wait} is false.
     *
     * @param key the application's key (the prefix is added here)
     * @param ttlMillis the lease
     * @param timeoutMillis how long to wait
     * @param await false to try once
     * @return the held lock
     * @throws LockTimeoutException if not acquired in time
     * @throws LockAlreadyHeldException if this thread already holds the key
     * @throws LockInterruptedException if interrupted while waiting
     * @throws IllegalArgumentException if the key or ttl is invalid
     */
    public HeldLock acquire(String key, long ttlMillis, long timeoutMillis, boolean await) {
        return acquire(key, ttlMillis, timeoutMillis, await, settings.poll());
    }

    /**
     * Acquires a lock, waiting up to {@code timeoutMillis} unless {@code wait} is false, polling the store
     * as {@code poll} says.
     *
     * @param key the application's key (the prefix is added here)
     * @param ttlMillis the lease
     * @param timeoutMillis how long to wait
     * @param await false to try once
     * @param poll how to poll the store while waiting
     * @return the held lock
     * @throws LockTimeoutException if not acquired in time
     * @throws LockAlreadyHeldException if this thread already holds the key
     * @throws LockInterruptedException if interrupted while waiting
     * @throws IllegalArgumentException if the key or ttl is invalid
     */
    public HeldLock acquire(String key, long ttlMillis, long timeoutMillis, boolean await, PollPolicy poll) {
        return acquire(key, ttlMillis, timeoutMillis, await, poll, Acquisition.EXCLUSIVE);
    }

    /**
     * Acquires a lock, exclusive or shared, waiting up to {@code timeoutMillis} unless {@code wait} is false,
     * polling the store as {@code poll} says.
     *
     * @param key the application's key (the prefix is added here)
     * @param ttlMillis the lease
     * @param timeoutMillis how long to wait
     * @param await false to try once
     * @param poll how to poll the store while waiting
     * @param sharedLimit {@link Acquisition#EXCLUSIVE}, or how many shared leases may hold the key at once
     * @return the held lock
     * @throws LockTimeoutException if not acquired in time
     * @throws LockAlreadyHeldException if this thread already holds the key (in any mode)
     * @throws LockInterruptedException if interrupted while waiting
     * @throws UnsupportedOperationException if the request is shared and the store keeps no shared leases
     * @throws IllegalArgumentException if the key or ttl is invalid
     */
    public HeldLock acquire(
            String key, long ttlMillis, long timeoutMillis, boolean await, PollPolicy poll, int sharedLimit) {
        long started = time.nanoTime();
        Refusal refusal = new Refusal(time);
        HeldLock lock = acquisitions.acquireOrNull(key, ttlMillis, timeoutMillis, await, poll, sharedLimit, refusal);
        if (lock == null) {
            throw new LockTimeoutException(
                    key,
                    await ? Duration.ofMillis(timeoutMillis) : Duration.ZERO,
                    Duration.ofNanos(time.nanoTime() - started),
                    refusal.remainingNow());
        }
        return lock;
    }

    /**
     * Like {@link #acquire}, but returns null instead of throwing when the lock is not acquired in time.
     *
     * @param key the application's key
     * @param ttlMillis the lease
     * @param timeoutMillis how long to wait
     * @param await false to try once
     * @return the held lock, or null
     */
    public HeldLock acquireOrNull(String key, long ttlMillis, long timeoutMillis, boolean await) {
        return acquireOrNull(key, ttlMillis, timeoutMillis, await, Acquisition.EXCLUSIVE);
    }

    /**
     * Like {@link #acquire(String, long, long, boolean, PollPolicy, int)} with the manager's polling, but returns
     * null instead of throwing when the lock is not acquired in time.
     *
     * @param key the application's key
     * @param ttlMillis the lease
     * @param timeoutMillis how long to wait
     * @param await false to try once
     * @param sharedLimit {@link Acquisition#EXCLUSIVE}, or how many shared leases may hold the key at once
     * @return the held lock, or null
     */
    public HeldLock acquireOrNull(String key, long ttlMillis, long timeoutMillis, boolean await, int sharedLimit) {
        return acquisitions.acquireOrNull(
                key, ttlMillis, timeoutMillis, await, settings.poll(), sharedLimit, new Refusal(time));
    }

    /**
     * Acquires a lock without holding a thread while it waits: the store is asked on the store-call pool, and
     * between two asks the acquisition waits on a timer and on the key's releases. The lock is bound to no thread
     * (any thread may release it, and the calling thread may hold the key too). Cancelling the future (or
     * completing it otherwise) gives the wait up, and a lock granted meanwhile back.
     *
     * @param key the application's key (the prefix is added here)
     * @param ttlMillis the lease
     * @param timeoutMillis how long to wait
     * @param await false to ask once
     * @param poll how to poll the store while waiting
     * @param sharedLimit {@link Acquisition#EXCLUSIVE}, or how many shared leases may hold the key at once
     * @return completed with the held lock, or with a {@link LockTimeoutException}, a {@link LockStoreException},
     *     or a {@link LockException} when the engine shuts down meanwhile
     * @throws UnsupportedOperationException if the request is shared and the store keeps no shared leases
     * @throws IllegalArgumentException if the key or ttl is invalid
     * @throws LockException if the engine is shut down
     */
    public CompletableFuture<HeldLock> acquireAsync(
            String key, long ttlMillis, long timeoutMillis, boolean await, PollPolicy poll, int sharedLimit) {
        return acquisitions.acquireAsync(key, ttlMillis, timeoutMillis, await, poll, sharedLimit);
    }

    /**
     * Refuses a shared request on a store that keeps no shared leases.
     *
     * @param key the application's key
     * @param sharedLimit the request's limit
     * @throws UnsupportedOperationException naming the store, for a shared request it cannot serve
     */
    public void checkSharing(String key, int sharedLimit) {
        if (sharedLimit != Acquisition.EXCLUSIVE && !sharedLocks) {
            throw new UnsupportedOperationException("Cannot acquire '" + key + "' as a shared lock (a read lock or a"
                    + " permit): the store of " + BatonLog.manager(name()) + " (" + store
                    + ") keeps no shared leases (it does not declare SHARED_LOCKS); use the memory, JPA table or"
                    + " Redis store for read locks and permits");
        }
    }

    /** @return the failure of an acquisition that finds the engine shut down */
    LockException shutDown(String key) {
        return new LockException("Cannot acquire '" + key + "': " + BatonLog.manager(name()) + " is shut down");
    }

    /**
     * Tries a key once, without waiting, and says how long its holder keeps it when it is not taken: what a
     * scheduled firing needs, which skips instead of waiting. Unlike {@link #acquireOrNull}, a key this JVM
     * already holds, on any thread, is simply not acquired (no {@link LockAlreadyHeldException}).
     *
     * @param key the application's key (the prefix is added here)
     * @param ttlMillis the lease
     * @return the lock, or the holder's remaining lease when known
     * @throws LockStoreException if the store failed
     * @throws LockException if the manager is shut down
     * @throws IllegalArgumentException if the key or ttl is invalid
     */
    public Attempt tryOnce(String key, long ttlMillis) {
        return acquisitions.tryOnce(key, ttlMillis);
    }

    /** A lock just taken: held here, renewed, and the listener told. */
    HeldLock holding(HeldLock lock) {
        if (lock.beside()) {
            lock.gate().holdBeside(lock);
        } else {
            lock.gate().holder(lock);
        }
        metrics.holding();
        renewals.start(lock);
        try {
            listener.acquired(lock);
        } catch (RuntimeException e) {
            BatonLog.listenerFailed("acquired", logKeys, lock.key(), e);
        }
        return lock;
    }

    // --- loss ---

    private void lose(HeldLock lock, LossKind kind, String reason, Throwable cause) {
        if (!lock.lose(reason, cause, false)) {
            return;
        }
        metrics.lost(kind);
        BatonLog.lockLost(logKeys, lock.key(), lock.fencingToken(), reason);
        tellHolder(lock);
    }

    /**
     * Tells the holder of a lock just lost (or revoked), on the store-call executor: user code, which may
     * block, must not hold up the scheduler (other locks' renewals and lease watchdogs). First
     * {@code whenLost()} completes (its callbacks run), then the worker is interrupted where configured, so
     * an interrupted worker finds {@code whenLost()} done; then the listener (events).
     */
    private void tellHolder(HeldLock lock) {
        Runnable tell = () -> {
            lock.signalLost();
            if (settings.interruptOnLoss()) {
                lock.interruptWorker();
            }
            try {
                listener.lost(lock, lock.lossReason());
            } catch (RuntimeException e) {
                BatonLog.listenerFailed("lost", logKeys, lock.key(), e);
            }
        };
        try {
            notifications.execute(tell);
        } catch (RejectedExecutionException e) {
            tell.run(); // the executor is shut down: tell on this thread rather than not at all
        }
    }

    // --- release ---

    /**
     * Called once per lock by {@link HeldLock#release()}. When a thread of this JVM waits for the key in its local
     * queue and the store hands keys over, the key goes to that thread in the release's own store call.
     */
    boolean release(HeldLock lock, boolean wasHeld) {
        HandOverTicket next =
                !lock.beside() && !isClosed() && handsOver() ? lock.gate().claimNext() : null;
        boolean released;
        try {
            released = next != null ? handOver(lock, next) : store.release(lock.storeKey(), lock.owner());
            settleHandOver();
        } catch (RuntimeException e) {
            throw storeFailure("releasing", lock.key(), e);
        } finally {
            if (next == null || !next.isHanded()) {
                if (next != null) {
                    next.passed(); // the next thread takes the permit given back below, and asks the store itself
                }
                forget(lock);
            }
        }
        if (wasHeld) {
            try {
                listener.released(lock);
            } catch (RuntimeException e) {
                BatonLog.listenerFailed("released", logKeys, lock.key(), e);
            }
        }
        return released;
    }

    /**
     * {@code Lock.extend}: sets the lease of a held lock to {@code ttlMillis} from now and renews it by that.
     *
     * @throws LockLostException if the store says this owner no longer holds the key (the lock is lost)
     * @throws LockStoreException if the store failed (the lock keeps its lease)
     */
    void extend(HeldLock lock, long ttlMillis) {
        boolean extended;
        try {
            extended = renewals.extend(lock, ttlMillis);
        } catch (RuntimeException e) {
            throw storeFailure("extending", lock.key(), e);
        }
        if (!extended) {
            lock.checkHeld();
            throw new LockLostException(
                    lock.key(), lock.fencingToken(), "it could not be extended: " + DISOWNED_AT_EXTEND, null);
        }
    }

    private static final String DISOWNED_AT_EXTEND = "the store says this owner no longer holds it";

    /**
     * Called once per lock by {@link HeldLock#keepUntil}, with no renewal in flight: sets the lease once to
     * the time left of the hold, then forgets the lock here without releasing it, so it expires in the store
     * by itself. If the store fails, the lock keeps the lease it had (it is never released early).
     *
     * @return true if the store set the lease; false if this owner no longer held it, or the store failed
     */
    boolean keep(HeldLock lock, long holdMillis) {
        try {
            long bound = Math.max(1, TimeUnit.NANOSECONDS.toMillis(lock.leaseEndNanos() - time.nanoTime()));
            return store.renew(new Renewal(lock.storeKey(), lock.owner(), holdMillis, bound));
        } catch (RuntimeException e) {
            BatonLog.keepFailed(logKeys, lock.key(), holdMillis, e);
            return false;
        } finally {
            forget(lock);
        }
    }

    /**
     * @return whether the store declares {@link StoreCapability#HAND_OVER}: looked up until a release has been
     *     answered (a store may add it once it has connected and knows its backend), then kept
     */
    boolean handsOver() {
        if (handOverSettled) {
            return handOver;
        }
        boolean declared = store.capabilities().contains(StoreCapability.HAND_OVER);
        handOver = declared;
        return declared;
    }

    /** After a release was answered the store has connected: what it declares now it declares for good. */
    private void settleHandOver() {
        if (!handOverSettled) {
            handOver = store.capabilities().contains(StoreCapability.HAND_OVER);
            handOverSettled = true;
        }
    }

    /**
     * Releases {@code lock} and hands its key over to the claimed ticket's acquisition in one store call; if the store
     * did, the ticket's thread gets the gate's permit (still taken) with the store's answer.
     *
     * @return whether the store released the lock
     */
    private boolean handOver(HeldLock lock, HandOverTicket next) {
        long sentAt = time.nanoTime();
        HandOverResult result = store.handOver(
                lock.owner(),
                new Acquisition(lock.storeKey(), next.owner, next.ttlMillis, LockArguments.STORE_BOUND, null));
        if (result.next().isAcquired()) {
            // Local bookkeeping first: the next holder replaces this one as the gate's holder once handed the key.
            KeyGate gate = lock.gate();
            if (gate.clearHolder(lock)) {
                metrics.released(time.nanoTime() - lock.acquiredAtNanos());
            }
            next.handed(result.next(), sentAt, time.nanoTime());
            exitGate(lock.storeKey(), gate);
        }
        return result.released();
    }

    /** Called by {@link HeldLock#release()} instead of {@link #release} for a lock left to expire: local bookkeeping only. */
    void forget(HeldLock lock) {
        KeyGate gate = lock.gate();
        if (gate.clearHolder(lock)) { // not if abandoned at shutdown: counted then
            metrics.released(time.nanoTime() - lock.acquiredAtNanos());
        }
        if (lock.beside()) {
            gate.wakeContender(); // room for the queue's contender and for those waiting beside it
        } else {
            gate.leave(); // to the next in the local queue, which needs no wake-up
            gate.wakeBeside();
        }
        exitGate(lock.storeKey(), gate);
    }

    /**
     * A store must report a failure as a {@link LockStoreException}; one that throws something else (its
     * driver's or client's exception) is wrapped, so callers get what the API documents. Bad arguments
     * ({@link IllegalArgumentException}) and Baton's own exceptions pass as they are.
     */
    static RuntimeException storeFailure(String operation, String key, RuntimeException e) {
        if (e instanceof LockException || e instanceof IllegalArgumentException) {
            return e;
        }
        return new LockStoreException("The lock store failed " + operation + " '" + key + "': " + e, e);
    }

    // --- keys and gates ---

    /**
     * The key as the store sees it (with the prefix), checked: the runtime's one check of an application's key
     * before any store call (acquire, inspect, force-release), which also refuses {@code U+0000} for a store
     * without {@link StoreCapability#NUL_IN_KEYS}. Stores check nothing themselves: they get only keys that passed
     * here and owners and waiters the runtime made ({@link OwnerTokens}), so the release, turn and renewal calls
     * of an acquisition need no check of their own.
     */
    String storeKey(String key) {
        if (key == null) {
            throw new IllegalArgumentException("lock key must not be null");
        }
        if (key.isEmpty()) {
            // Checked here: with a prefix the store key would not be empty, and would lock the bare prefix.
            throw new IllegalArgumentException("lock key must not be empty");
        }
        String storeKey = settings.prefix().isEmpty() ? key : settings.prefix() + key;
        try {
            return LockArguments.requireValidKey(storeKey, nulAllowed);
        } catch (IllegalArgumentException e) {
            if (settings.prefix().isEmpty()) {
                throw e;
            }
            throw new IllegalArgumentException(e.getMessage() + " (with the prefix '" + settings.prefix() + "')");
        }
    }

    /**
     * Checks an application's key as every acquisition does, without a store call: for callers that make a key
     * long before they take it (an election's name).
     *
     * @param key the application's key
     * @throws IllegalArgumentException if it is not a valid key for this manager's store
     */
    public void checkKey(String key) {
        storeKey(key);
    }

    /** How many threads of this JVM use the key's queue (holder and waiters); for tests. */
    int gateUsers(String key) {
        return gates.users(storeKey(key));
    }

    private void exitGate(String storeKey, KeyGate gate) {
        gates.exit(storeKey, gate);
    }

    /**
     * Subscribes to release notifications once the store offers them. A store that learns its backend at
     * its first operation (the JPA store: PostgreSQL notifies, MariaDB does not) may only declare them
     * after connecting, so the capability is looked up again at each refused wait until it appears. Once
     * subscribed, every contender is woken to ask the store once more: a release made before the
     * subscription was in place was not told (the contender's own permit makes its next pause end at once).
     */
    void subscribeOnce() {
        if (subscribed.get()
                || !store.capabilities().contains(StoreCapability.RELEASE_NOTIFICATION)
                || !subscribed.compareAndSet(false, true)) {
            return;
        }
        try {
            subscription.set(store.onRelease(storeKey -> {
                KeyGate gate = gates.get(storeKey);
                if (gate != null) {
                    gate.wakeContender();
                }
            }));
            polling.notified(true);
            gates.wakeContenders();
        } catch (RuntimeException e) {
            BatonLog.notificationUnavailable(name(), e);
        }
        if (closed.get()) {
            // close() may have looked for the subscription before it was made.
            unsubscribe();
        }
    }

    /** Closes the release notification subscription, once. */
    private void unsubscribe() {
        AutoCloseable sub = subscription.getAndSet(null);
        if (sub != null) {
            try {
                sub.close();
            } catch (Exception e) {
                BatonLog.shutdownFailed("the release notification of " + BatonLog.manager(name()), e);
            }
        }
    }

    /** @return the locks of this engine now: held, lost but not yet released, or revoked at shutdown */
    List<HeldLock> heldLocks() {
        return gates.heldLocks();
    }

    /**
     * @return how many locks this manager holds now
     */
    public int heldCount() {
        return gates.heldCount();
    }

    /**
     * Shuts down without a grace period: {@link #closeAll} of this engine alone with a grace of zero,
     * returning at once if another thread is closing it. Idempotent.
     */
    @Override
    public void close() {
        closeAll(List.of(this), Duration.ZERO, false);
    }

    /**
     * {@link #closeAll} of this engine alone.
     *
     * @param grace how long to wait for the work under held locks to end
     */
    public void close(Duration grace) {
        closeAll(List.of(this), grace);
    }

    /**
     * Shuts engines down together, sharing one grace period: refuses new acquisitions; tells the holder of
     * every held lock that it is lost (its {@code isHeld()} turns false, so a JTA transaction under it
     * cannot commit; its worker is interrupted where the manager says so); waits until every lock is
     * released, at most {@code grace}, renewing them meanwhile; then leaves each lock still open to expire
     * by its lease (renewals stop; it is not released), and closes the stores. Idempotent; an engine another thread
     * is closing is waited for.
     *
     * @param engines the engines
     * @param grace how long to wait for the work under held locks to end; zero not to wait
     */
    public static void closeAll(Collection<LockEngine> engines, Duration grace) {
        closeAll(engines, grace, true);
    }

    private static void closeAll(Collection<LockEngine> engines, Duration grace, boolean awaitOthers) {
        long deadline = System.nanoTime() + grace.toNanos();
        List<LockEngine> mine = new ArrayList<>();
        List<LockEngine> others = new ArrayList<>();
        for (LockEngine engine : engines) {
            (engine.closed.compareAndSet(false, true) ? mine : others).add(engine);
        }
        List<HeldLock> revoked = new ArrayList<>();
        for (LockEngine engine : mine) {
            engine.gates.wakeContenders(); // waiting acquisitions end now, not at their next poll
            revoked.addAll(engine.revokeAll(grace));
        }
        awaitEnded(revoked, deadline);
        for (LockEngine engine : mine) {
            engine.finishClosing(grace);
        }
        if (awaitOthers) {
            for (LockEngine engine : others) {
                engine.awaitTerminated(deadline);
            }
        }
    }

    /** Tells every holder that its lock is lost because of the shutdown; the locks stay renewed. */
    private List<HeldLock> revokeAll(Duration grace) {
        List<HeldLock> locks = gates.heldLocks();
        if (!locks.isEmpty()) {
            BatonLog.stoppingWithLocks(name(), locks.size(), grace.toMillis());
        }
        List<HeldLock> revoked = new ArrayList<>(locks.size());
        for (HeldLock lock : locks) {
            if (lock.lose(SHUTTING_DOWN, null, true)) {
                metrics.lost(LossKind.SHUTDOWN);
                tellHolder(lock);
            }
            revoked.add(lock); // a lock lost already is waited for too: its holder releases it when its work ends
        }
        return revoked;
    }

    private static final String SHUTTING_DOWN = "the application is shutting down (the lock is released when its work"
            + " ends, or left to expire by its lease if the work is still running at the end of the shutdown grace period)";

    private static void awaitEnded(List<HeldLock> locks, long deadline) {
        for (HeldLock lock : locks) {
            // Also a lock taken by the thread shutting down: its holder may give it back from whenLost().
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return;
            }
            try {
                lock.ended().get(remaining, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException e) {
                // not completed exceptionally
            }
        }
    }

    private void finishClosing(Duration grace) {
        try {
            for (HeldLock lock : gates.heldLocks()) {
                // Its work may still run: releasing would let another process in while it may still write.
                if (lock.abandon()) {
                    BatonLog.leftToExpire(logKeys, lock.key(), lock.fencingToken(), grace.toMillis());
                }
                // No longer listed as held; its gate stays taken until its work ends and it is released.
                if (lock.isAbandoned() && lock.gate().clearHolder(lock)) {
                    metrics.released(time.nanoTime() - lock.acquiredAtNanos());
                }
            }
            renewals.closed();
            unsubscribe();
            try {
                store.close();
            } catch (RuntimeException e) {
                BatonLog.shutdownFailed("the store of " + BatonLog.manager(name()), e);
            }
        } finally {
            terminated.complete(null);
        }
    }

    /** Waits for another thread's {@link #closeAll} of this engine: until the deadline, and then for its last store calls. */
    private void awaitTerminated(long deadline) {
        long wait = Math.max(0, deadline - System.nanoTime()) + TimeUnit.SECONDS.toNanos(10);
        try {
            terminated.get(wait, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the other closer is stuck on the store: do not wait for it forever
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
