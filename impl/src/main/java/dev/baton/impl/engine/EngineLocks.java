package dev.baton.impl.engine;

import dev.baton.Leadership;
import dev.baton.Lock;
import dev.baton.LockInfo;
import dev.baton.LockOptions;
import dev.baton.Locks;
import dev.baton.impl.config.PollPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * {@link Locks} on top of one {@link LockEngine}; {@link #manager(String)} asks the registry for others.
 * A lock taken or released inside a unit of work of the caller's thread (a JTA transaction, told by the
 * {@link ReleaseDeferral}) leaves the store only after that unit of work has completed.
 */
public final class EngineLocks implements Locks {

    private final LockEngine engine;
    private final Function<String, Locks> managers;
    private final ReleaseDeferral deferral;
    private final Inspection inspection;
    private final Function<String, Leadership> elections;
    private final CallerContext callerContext;

    /**
     * Locks released in the store as soon as their holder releases them.
     *
     * @param engine the manager's engine
     * @param managers finds other managers by name; throws {@link IllegalArgumentException} for unknown ones
     */
    public EngineLocks(LockEngine engine, Function<String, Locks> managers) {
        this(engine, managers, ReleaseDeferral.NONE);
    }

    /**
     * @param engine the manager's engine
     * @param managers finds other managers by name; throws {@link IllegalArgumentException} for unknown ones
     * @param deferral the units of work (transactions) a lock's store release waits for
     */
    public EngineLocks(LockEngine engine, Function<String, Locks> managers, ReleaseDeferral deferral) {
        this(
                engine,
                managers,
                deferral,
                new Inspection(engine, false, () -> Thread.currentThread().getName()));
    }

    /**
     * @param engine the manager's engine
     * @param managers finds other managers by name; throws {@link IllegalArgumentException} for unknown ones
     * @param deferral the units of work (transactions) a lock's store release waits for
     * @param inspection the operator's view of the engine's locks
     */
    public EngineLocks(
            LockEngine engine, Function<String, Locks> managers, ReleaseDeferral deferral, Inspection inspection) {
        this(engine, managers, deferral, inspection, name -> {
            throw new UnsupportedOperationException("Leader elections are not set up for " + engine.name());
        });
    }

    /**
     * @param engine the manager's engine
     * @param managers finds other managers by name; throws {@link IllegalArgumentException} for unknown ones
     * @param deferral the units of work (transactions) a lock's store release waits for
     * @param inspection the operator's view of the engine's locks
     * @param elections the manager's elections: this instance's candidacy by name ({@link #lead})
     */
    public EngineLocks(
            LockEngine engine,
            Function<String, Locks> managers,
            ReleaseDeferral deferral,
            Inspection inspection,
            Function<String, Leadership> elections) {
        this(engine, managers, deferral, inspection, elections, CallerContext.NONE);
    }

    /**
     * @param engine the manager's engine
     * @param managers finds other managers by name; throws {@link IllegalArgumentException} for unknown ones
     * @param deferral the units of work (transactions) a lock's store release waits for
     * @param inspection the operator's view of the engine's locks
     * @param elections the manager's elections: this instance's candidacy by name ({@link #lead})
     * @param callerContext how a Baton thread that completes an {@link #acquireAsync} stage enters its caller's
     *     server context
     */
    public EngineLocks(
            LockEngine engine,
            Function<String, Locks> managers,
            ReleaseDeferral deferral,
            Inspection inspection,
            Function<String, Leadership> elections,
            CallerContext callerContext) {
        this.callerContext = Objects.requireNonNull(callerContext, "callerContext");
        this.elections = Objects.requireNonNull(elections, "elections");
        this.engine = engine;
        this.managers = managers;
        this.deferral = Objects.requireNonNull(deferral, "deferral");
        this.inspection = Objects.requireNonNull(inspection, "inspection");
    }

    @Override
    public String name() {
        return engine.name();
    }

    @Override
    public Locks manager(String name) {
        return managers.apply(Objects.requireNonNull(name, "manager name"));
    }

    @Override
    public Lock acquire(String key) {
        return acquire(key, LockOptions.defaults());
    }

    @Override
    public Lock acquire(String key, LockOptions options) {
        return ApiLock.taken(
                engine.acquire(
                        key, ttl(options), timeout(options), options.await(), poll(options), Sharing.limit(options)),
                deferral);
    }

    @Override
    public CompletionStage<Lock> acquireAsync(String key) {
        return acquireAsync(key, LockOptions.defaults());
    }

    /**
     * {@inheritDoc} The stage handed out is the application's own: cancelling it cancels the engine's wait, and a
     * lock the engine grants after it was completed otherwise is given back.
     */
    @Override
    public CompletionStage<Lock> acquireAsync(String key, LockOptions options) {
        CompletableFuture<HeldLock> waiting = engine.acquireAsync(
                key, ttl(options), timeout(options), options.await(), poll(options), Sharing.limit(options));
        CompletableFuture<Lock> handed = new CompletableFuture<>();
        // completed on a Baton thread: in the caller's server context, for what the application chained to it
        CallerContext.Captured caller = callerContext.capture();
        waiting.whenComplete((lock, failure) -> caller.run(() -> {
            if (failure != null) {
                handed.completeExceptionally(failure);
            } else if (!handed.complete(ApiLock.unbound(lock, deferral))) {
                lock.close();
            }
        }));
        handed.whenComplete((lock, failure) -> {
            if (failure != null) {
                waiting.cancel(false); // the application gave up: so does the wait
            }
        });
        return handed;
    }

    @Override
    public Optional<Lock> tryAcquire(String key) {
        return tryAcquire(key, LockOptions.defaults());
    }

    @Override
    public Optional<Lock> tryAcquire(String key, LockOptions options) {
        HeldLock lock = engine.acquireOrNull(key, ttl(options), 0, false, Sharing.limit(options));
        return lock == null ? Optional.empty() : Optional.of(ApiLock.taken(lock, deferral));
    }

    @Override
    public <T, E extends Exception> T callWithLock(String key, LockedWork<T, E> work) throws E {
        return callWithLock(key, LockOptions.defaults(), work);
    }

    @Override
    public <T, E extends Exception> T callWithLock(String key, LockOptions options, LockedWork<T, E> work) throws E {
        Objects.requireNonNull(work, "work");
        Lock lock = acquire(key, options);
        CurrentLocks.push(lock);
        try {
            return work.call(lock);
        } finally {
            CurrentLocks.pop(lock);
            lock.close();
        }
    }

    @Override
    public <T> T callWithLock(String key, Callable<T> work) throws Exception {
        Objects.requireNonNull(work, "work");
        return callWithLock(key, LockOptions.defaults(), lock -> work.call());
    }

    @Override
    public <E extends Exception> void runWithLock(String key, LockedAction<E> action) throws E {
        runWithLock(key, LockOptions.defaults(), action);
    }

    @Override
    public <E extends Exception> void runWithLock(String key, LockOptions options, LockedAction<E> action) throws E {
        Objects.requireNonNull(action, "action");
        callWithLock(key, options, lock -> {
            action.run(lock);
            return null;
        });
    }

    @Override
    public Leadership lead(String name) {
        return elections.apply(name);
    }

    @Override
    public Optional<Lock> current() {
        return CurrentLocks.current();
    }

    @Override
    public Optional<LockInfo> inspect(String key) {
        return inspection.inspect(key);
    }

    @Override
    public List<LockInfo> held() {
        return inspection.held();
    }

    @Override
    public boolean forceRelease(String key) {
        return inspection.forceRelease(key);
    }

    private long ttl(LockOptions options) {
        return Objects.requireNonNull(options, "options")
                .ttl()
                .map(Duration::toMillis)
                .orElse(engine.settings().ttlMillis());
    }

    private long timeout(LockOptions options) {
        return options.timeout()
                .map(Duration::toMillis)
                .orElse(engine.settings().timeoutMillis());
    }

    /** The options' poll settings over the manager's; {@link LockOptions} has checked them already. */
    private PollPolicy poll(LockOptions options) {
        PollPolicy manager = engine.settings().poll();
        if (options.pollMinInterval().isEmpty() && options.pollJitter().isEmpty()) {
            return manager;
        }
        return new PollPolicy(
                options.pollMinInterval().map(Duration::toMillis).orElse(manager.minMillis()),
                options.pollMaxInterval().map(Duration::toMillis).orElse(manager.maxMillis()),
                options.pollJitter().orElse(manager.jitter()));
    }

    @Override
    public String toString() {
        return "Locks[" + (name().isEmpty() ? "default" : name()) + "]";
    }
}
