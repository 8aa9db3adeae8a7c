package dev.baton.impl.engine;

import dev.baton.LockConfigurationException;
import dev.baton.LockException;
import dev.baton.LockInfo;
import dev.baton.LockStoreException;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.logging.BatonLog;
import dev.baton.spi.Holder;
import dev.baton.spi.LockArguments;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The operator's view of one lock manager's locks: who holds a key ({@code Locks.inspect}), what this
 * application holds ({@code Locks.held}), and the administrative force-release. Inspection and
 * force-release need a store that declares {@link StoreCapability#INSPECT}; a forced release is the
 * store's ordinary release with the inspected owner, so it is the same compare-and-set as any release
 * and never touches the key's fencing counter.
 */
public final class Inspection {

    /** A holder that changes between inspecting and releasing is looked up again, this often at most. */
    private static final int FORCE_ATTEMPTS = 3;

    private final LockEngine engine;
    private final boolean forceReleaseEnabled;
    private final Authorization authorization;
    private final Supplier<String> caller;

    /**
     * Checks the caller of a force release on its own thread, before the store is asked: the container's security
     * ({@code baton.admin.force-release.role}) lives outside the engine.
     */
    @FunctionalInterface
    public interface Authorization {

        /** Every caller may. */
        Authorization ANYONE = Optional::empty;

        /**
         * @return what allowed the caller, for the audit line (e.g. its role); empty when nothing had to
         * @throws RuntimeException when the caller may not (the exception reaches it)
         */
        Optional<String> check();
    }

    /**
     * @param engine the manager's engine
     * @param forceReleaseEnabled whether {@code baton.admin.force-release} is true
     * @param caller names who calls (thread and principal), for the log
     */
    public Inspection(LockEngine engine, boolean forceReleaseEnabled, Supplier<String> caller) {
        this(engine, forceReleaseEnabled, Authorization.ANYONE, caller);
    }

    /**
     * @param engine the manager's engine
     * @param forceReleaseEnabled whether {@code baton.admin.force-release} is true
     * @param authorization checks the caller of a force release
     * @param caller names who calls (thread and principal), for the log
     */
    public Inspection(
            LockEngine engine, boolean forceReleaseEnabled, Authorization authorization, Supplier<String> caller) {
        this.engine = engine;
        this.forceReleaseEnabled = forceReleaseEnabled;
        this.authorization = authorization;
        this.caller = caller;
    }

    /**
     * @param key the application's key
     * @return its live holder, if any
     */
    public Optional<LockInfo> inspect(String key) {
        String storeKey = engine.storeKey(key);
        return holder(key, storeKey)
                .map(h -> new LockInfo(
                        key,
                        h.fencingToken(),
                        Duration.ofMillis(h.remainingLeaseMillis()),
                        heldHere(storeKey, h.owner())));
    }

    /** @return the locks this manager holds now, by the local estimate of their leases */
    public List<LockInfo> held() {
        long now = engine.time().nanoTime();
        List<LockInfo> held = new ArrayList<>();
        for (HeldLock lock : engine.heldLocks()) {
            long remaining = lock.leaseEndNanos() - now;
            if (lock.stillHeldState() && remaining > 0) {
                held.add(new LockInfo(lock.key(), lock.fencingToken(), Duration.ofNanos(remaining), true));
            }
        }
        return List.copyOf(held);
    }

    /**
     * @param key the application's key
     * @return true if a live lock held it and this call freed it
     */
    public boolean forceRelease(String key) {
        if (!forceReleaseEnabled) {
            throw new LockConfigurationException("Releasing lock '" + key + "' by force is not enabled: set "
                    + BatonConfig.FORCE_RELEASE + "=true to allow Locks.forceRelease");
        }
        Optional<String> allowedBy = authorization.check();
        String storeKey = engine.storeKey(key);
        for (int attempt = 0; attempt < FORCE_ATTEMPTS; attempt++) {
            Optional<Holder> holder = holder(key, storeKey);
            if (holder.isEmpty()) {
                return false;
            }
            String owner = ownerOf(key, holder.get());
            boolean released;
            try {
                released = engine.store().release(storeKey, owner);
            } catch (LockException | IllegalArgumentException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new LockStoreException("The lock store failed releasing '" + key + "' by force: " + e, e);
            }
            if (released) {
                BatonLog.forcedRelease(
                        engine.name(),
                        engine.logKeys(),
                        key,
                        holder.get().fencingToken(),
                        caller.get() + allowedBy.map(how -> ", " + how).orElse(""));
                return true;
            }
            // released, expired or taken over between the two calls: look again
        }
        return false;
    }

    private Optional<Holder> holder(String key, String storeKey) {
        LockStore store = engine.store();
        if (!store.capabilities().contains(StoreCapability.INSPECT)) {
            throw new UnsupportedOperationException(
                    "The lock store " + store + " of " + BatonLog.manager(engine.name()) + " cannot tell who holds '"
                            + key + "': it does not declare the capability " + StoreCapability.INSPECT);
        }
        try {
            return store.inspect(storeKey);
        } catch (LockException | IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new LockStoreException("The lock store failed inspecting '" + key + "': " + e, e);
        }
    }

    /**
     * The inspected holder's owner, checked as every owner the runtime passes to a store: it is the store's own
     * answer, so one that no acquisition could have is the store's failure, not the caller's.
     */
    private static String ownerOf(String key, Holder holder) {
        try {
            return LockArguments.requireValidOwner(holder.owner());
        } catch (IllegalArgumentException e) {
            throw new LockStoreException(
                    "The lock store reported a holder of '" + key + "' that no acquisition can be: " + e.getMessage(),
                    e);
        }
    }

    private boolean heldHere(String storeKey, String owner) {
        for (HeldLock lock : engine.heldLocks()) {
            if (lock.storeKey().equals(storeKey) && lock.owner().equals(owner)) {
                return true;
            }
        }
        return false;
    }
}
