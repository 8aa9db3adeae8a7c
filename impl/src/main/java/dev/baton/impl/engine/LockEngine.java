package dev.baton.impl.engine;

import dev.baton.LockAlreadyHeldException;
import dev.baton.LockException;
import dev.baton.LockInterruptedException;
import dev.baton.LockLostException;
import dev.baton.LockStoreException;
import dev.baton.LockTimeoutException;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.logging.BatonLog;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One lock manager's runtime: acquires (waiting locally, then polling the store), renews and releases
 * locks of one {@link LockStore}. No CDI in here; the CDI layer wires it and listens.
 *
 * <p>Waiting: the threads of this JVM that want the same key queue on a {@link KeyGate}; only the first
 * talks to the store, the others wait for a local release, which hands the key over at once. The
 * contender polls the store with exponential backoff and jitter, never sleeping past the holder's
 * remaining lease when the store reports it, and is woken at once by the store's release notification
 * where there is one.
 *
 * <p>Renewal and loss: see {@link Renewals}.
 */
public final class LockEngine implements AutoCloseable {

    private static final long POLL_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long POLL_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** With release notifications polling is only the safety net for lost notifications. */
    private static final long POLL_MAX_NOTIFIED_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final ManagerSettings settings;
    private final LockStore store;
    private final LockListener listener;
    private final boolean nulAllowed;
    private final boolean notifies;
    private final ConcurrentHashMap<String, KeyGate> gates = new ConcurrentHashMap<>();
    private final Set<HeldLock> held = ConcurrentHashMap.newKeySet();
    private final Renewals renewals;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicReference<AutoCloseable> subscription = new AtomicReference<>();

    /**
     * @param settings the manager's settings
     * @param store the store; the engine closes it on {@link #close()}
     * @param scheduler keeps the time of renewals and lease ends (short tasks only); not shut down by the engine
     * @param storeCalls runs the renewal calls to the store, which may block; not shut down by the engine
     * @param listener told of acquisitions, releases and losses
     */
    public LockEngine(ManagerSettings settings, LockStore store, ScheduledExecutorService scheduler, Executor storeCalls,
            LockListener listener) {
        this.settings = settings;
        this.store = store;
        this.listener = listener;
        Set<StoreCapability> capabilities = store.capabilities();
        this.nulAllowed = capabilities.contains(StoreCapability.NUL_IN_KEYS);
        this.notifies = capabilities.contains(StoreCapability.RELEASE_NOTIFICATION);
        this.renewals = new Renewals(store, settings, scheduler, storeCalls,
                capabilities.contains(StoreCapability.BATCH_RENEW), held, this::lose);
    }

    /**
     * @return the manager's name, empty for the default
     */
    public String name() {
        return settings.name();
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
     * @param wait false to try once
     * @return the held lock
     * @throws LockTimeoutException if not acquired in time
     * @throws LockAlreadyHeldException if this thread already holds the key
     * @throws LockInterruptedException if interrupted while waiting
     * @throws IllegalArgumentException if the key or ttl is invalid
     */
    public HeldLock acquire(String key, long ttlMillis, long timeoutMillis, boolean wait) {
        HeldLock lock = acquireOrNull(key, ttlMillis, timeoutMillis, wait);
        if (lock == null) {
            throw new LockTimeoutException(key, wait ? Duration.ofMillis(timeoutMillis) : Duration.ZERO);
        }
        return lock;
    }

    /**
     * Like {@link #acquire}, but returns null instead of throwing when the lock is not acquired in time.
     *
     * @param key the application's key
     * @param ttlMillis the lease
     * @param timeoutMillis how long to wait
     * @param wait false to try once
     * @return the held lock, or null
     */
    public HeldLock acquireOrNull(String key, long ttlMillis, long timeoutMillis, boolean wait) {
        String storeKey = storeKey(key);
        LockArguments.requireValidTtl(ttlMillis);
        if (closed.get()) {
            throw shutDown(key);
        }
        subscribeOnce();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(wait ? timeoutMillis : 0);
        KeyGate gate = enterGate(storeKey);
        boolean entered = false;
        HeldLock lock = null;
        try {
            HeldLock holder = gate.holder();
            if (holder != null && holder.boundThread() == Thread.currentThread()) {
                throw new LockAlreadyHeldException(key);
            }
            entered = gate.tryEnter(wait ? deadline - System.nanoTime() : 0);
            if (entered) {
                lock = contend(gate, key, storeKey, ttlMillis, wait, deadline);
                if (lock != null && closed.get()) {
                    // close() may have listed the held locks before this one joined them: nobody else would
                    // release it. Whoever releases it first (here or close()) also gives the gate back.
                    lock.close();
                    throw shutDown(key);
                }
            }
            return lock;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(key, e);
        } finally {
            if (lock == null) {
                if (entered) {
                    gate.leave();
                }
                exitGate(storeKey, gate);
            }
        }
    }

    private LockException shutDown(String key) {
        return new LockException("Lock manager '" + name() + "' is shut down; cannot acquire '" + key + "'");
    }

    private HeldLock contend(KeyGate gate, String key, String storeKey, long ttlMillis, boolean wait, long deadline)
            throws InterruptedException {
        gate.contending(Thread.currentThread());
        try {
            for (int attempt = 0; ; attempt++) {
                if (closed.get()) {
                    throw shutDown(key);
                }
                String owner = OwnerTokens.next();
                long sentAt = System.nanoTime();
                AcquireResult result;
                try {
                    result = store.acquire(storeKey, owner, ttlMillis);
                } catch (RuntimeException e) {
                    throw storeFailure("acquiring", key, e);
                }
                if (result.isAcquired()) {
                    return holding(new HeldLock(this, gate, key, storeKey, owner, result.fencingToken(), ttlMillis,
                            sentAt + TimeUnit.MILLISECONDS.toNanos(ttlMillis), Thread.currentThread()));
                }
                long remaining = deadline - System.nanoTime();
                if (!wait || remaining <= 0) {
                    return null;
                }
                LockSupport.parkNanos(gate, Math.min(remaining, pause(attempt, result.remainingLeaseMillis())));
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } finally {
            gate.contending(null);
        }
    }

    /** Exponential backoff with jitter, capped by the holder's remaining lease when known. */
    private long pause(int attempt, OptionalLong holderRemainingMillis) {
        long max = notifies ? POLL_MAX_NOTIFIED_NANOS : POLL_MAX_NANOS;
        long base = Math.min(max, POLL_MIN_NANOS << Math.min(attempt, 20));
        long pause = base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1);
        if (holderRemainingMillis.isPresent()) {
            // +1 ms: wake just after the lease ends, not just before it.
            pause = Math.min(pause, TimeUnit.MILLISECONDS.toNanos(holderRemainingMillis.getAsLong() + 1));
        }
        return Math.max(pause, TimeUnit.MICROSECONDS.toNanos(100));
    }

    private HeldLock holding(HeldLock lock) {
        lock.gate().holder(lock);
        held.add(lock);
        renewals.start(lock);
        try {
            listener.acquired(lock);
        } catch (RuntimeException e) {
            BatonLog.listenerFailed("acquired " + lock.key(), e);
        }
        return lock;
    }

    // --- loss ---

    private void lose(HeldLock lock, String reason, Throwable cause) {
        if (!lock.lose(reason, cause)) {
            return;
        }
        LockLostException exception = lock.lossReason();
        BatonLog.lockLost(lock.key(), lock.fencingToken(), reason);
        try {
            listener.lost(lock, exception);
        } catch (RuntimeException e) {
            BatonLog.listenerFailed("lost " + lock.key(), e);
        }
        if (settings.interruptOnLoss()) {
            lock.interruptWorker();
        }
    }

    // --- release ---

    /** Called once per lock by {@link HeldLock#release()}. */
    boolean release(HeldLock lock, boolean wasHeld) {
        boolean released;
        try {
            released = store.release(lock.storeKey(), lock.owner());
        } catch (RuntimeException e) {
            throw storeFailure("releasing", lock.key(), e);
        } finally {
            KeyGate gate = lock.gate();
            if (gate.holder() == lock) {
                gate.holder(null);
            }
            held.remove(lock);
            gate.leave();
            exitGate(lock.storeKey(), gate);
        }
        if (wasHeld) {
            try {
                listener.released(lock);
            } catch (RuntimeException e) {
                BatonLog.listenerFailed("released " + lock.key(), e);
            }
        }
        return released;
    }

    /**
     * A store must report a failure as a {@link LockStoreException}; one that throws something else (its
     * driver's or client's exception) is wrapped, so callers get what the API documents. Bad arguments
     * ({@link IllegalArgumentException}) and Baton's own exceptions pass as they are.
     */
    private static RuntimeException storeFailure(String operation, String key, RuntimeException e) {
        if (e instanceof LockException || e instanceof IllegalArgumentException) {
            return e;
        }
        return new LockStoreException("The lock store failed " + operation + " '" + key + "': " + e, e);
    }

    // --- keys and gates ---

    private String storeKey(String key) {
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

    private KeyGate enterGate(String storeKey) {
        return gates.compute(storeKey, (k, gate) -> {
            KeyGate g = gate == null ? new KeyGate() : gate;
            g.users++;
            return g;
        });
    }

    private void exitGate(String storeKey, KeyGate gate) {
        gates.computeIfPresent(storeKey, (k, g) -> g == gate && --g.users == 0 ? null : g);
    }

    private void subscribeOnce() {
        if (!notifies || !subscribed.compareAndSet(false, true)) {
            return;
        }
        try {
            subscription.set(store.onRelease(storeKey -> {
                KeyGate gate = gates.get(storeKey);
                if (gate != null) {
                    gate.wakeContender();
                }
            }));
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
                BatonLog.shutdownFailed("the release notification of manager '" + name() + "'", e);
            }
        }
    }

    /**
     * @return how many locks this manager holds now
     */
    public int heldCount() {
        return held.size();
    }

    /**
     * Releases every held lock and closes the store. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<HeldLock> remaining = new ArrayList<>(held);
        if (!remaining.isEmpty()) {
            BatonLog.releasingAtShutdown(remaining.size());
        }
        for (HeldLock lock : remaining) {
            lock.close();
        }
        unsubscribe();
        try {
            store.close();
        } catch (RuntimeException e) {
            BatonLog.shutdownFailed("the store of manager '" + name() + "'", e);
        }
    }
}
