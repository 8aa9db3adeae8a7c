package dev.baton.impl.cdi;

import dev.baton.LockConfigurationException;
import dev.baton.LockException;
import dev.baton.Locks;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.CallerContext;
import dev.baton.impl.engine.EngineLocks;
import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.Inspection;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.leadership.Elections;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.metrics.Meters;
import dev.baton.impl.runtime.RenewalExecutors;
import dev.baton.impl.runtime.ServerContexts;
import dev.baton.impl.runtime.StorelessLocks;
import dev.baton.impl.time.EngineTime;
import dev.baton.impl.transaction.TransactionSupport;
import dev.baton.spi.LockStore;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.BeanManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * What one application's lock runtime holds: one {@link LockEngine} per lock manager (started at first use, so
 * stores connect lazily), the managers' {@link Locks} and elections, the renewal scheduler, JTA support, metrics and
 * events. The {@link LockRuntime} bean of each CDI container of the application uses it; there is one per
 * application even where a server starts a container per module ({@link ApplicationRuntimes}). {@link #stop()}
 * tells every holder its lock is lost, releases each lock as its work ends (waiting at most {@code
 * baton.shutdown-grace}), leaves a lock whose work still runs to expire, and closes the stores
 * ({@link LockEngine#closeAll}).
 */
final class ApplicationRuntime {

    private final Map<String, LockEngine> engines = new ConcurrentHashMap<>();
    private final Map<String, Locks> locks = new ConcurrentHashMap<>();
    private final Map<String, Elections> elections = new ConcurrentHashMap<>();

    private final BeanManager beanManager;
    private final BatonConfig config;
    private final ManagerStores stores;
    private final RenewalExecutors executors;
    private final TransactionSupport transactions;
    private final CdiLockListener listener;
    private final Meters meters;
    /** Who may release by force ({@code baton.admin.force-release.role}). */
    private final ForceReleaseRoles forceReleaseRoles;
    /** The engines' time: the system's, unless the application provides an {@link EngineTime} bean (tests on virtual time). */
    private final EngineTime time;
    /** Set at application stop: no engine starts after it. */
    private volatile boolean stopped;
    /** Releases the locks when the JVM exits without stopping CDI first (Java SE, Helidon: SIGTERM early in startup). */
    private Thread exitHook;

    /**
     * Starts the runtime: no store connects yet.
     *
     * @param deployment what deployment left (the first module's, where the application has several)
     * @param beanManager that module's bean manager: the application's beans and events are looked up through it
     */
    ApplicationRuntime(BatonDeployment deployment, BeanManager beanManager) {
        this.beanManager = beanManager;
        config = deployment.plans().config();
        if (config == null) {
            throw new LockConfigurationException("Baton's configuration is invalid (see the deployment errors)");
        }
        stores = new ManagerStores(deployment.plans().storePlan(), config, deployment.beans(beanManager));
        if (deployment.plans().storePlan().source("") instanceof StorePlan.UnconfiguredMemory) {
            BatonLog.memoryStoreByDefault();
        }
        executors = RenewalExecutors.detect();
        transactions = TransactionSupport.detect(deployment.beans(beanManager), executors.storeCalls());
        listener = new CdiLockListener(beanManager);
        forceReleaseRoles = new ForceReleaseRoles(config.forceReleaseRoles(), beanManager);
        Instance<EngineTime> times = beanManager.createInstance().select(EngineTime.class);
        time = times.isResolvable() ? times.get() : EngineTime.system(executors.executor());
        meters = Meters.detect(config.metricsEnabled(), config.metricsApi(), beanManager);
        if (executors.owned()) {
            // Outside a Jakarta EE server nothing guarantees that CDI is shut down before the JVM exits.
            // (In a server the application's lifecycle is the container's, and a hook would pin its class loader.)
            exitHook = new Thread(this::releaseAll, "baton-release-at-exit");
            try {
                Runtime.getRuntime().addShutdownHook(exitHook);
            } catch (IllegalStateException exiting) {
                exitHook = null;
            }
        }
    }

    /** Stops the runtime: the application stops. */
    void stop() {
        releaseAll();
        executors.shutdown();
        meters.close();
        if (exitHook != null && Thread.currentThread() != exitHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(exitHook);
            } catch (IllegalStateException exiting) {
                // the JVM is exiting: the hook runs (or ran) releaseAll, which is idempotent
            }
        }
    }

    private void releaseAll() {
        stopped = true;
        // No candidacy joins from now on. The engines' shutdown revokes the terms' locks with all the others, in
        // parallel, and each term is told before its lock is released; then the stand-bys stop.
        elections.values().forEach(Elections::stopJoining);
        LockEngine.closeAll(List.copyOf(engines.values()), Duration.ofMillis(config.shutdownGraceMillis()));
        engines.clear();
        for (Map.Entry<String, Elections> e : List.copyOf(elections.entrySet())) {
            try {
                e.getValue().closeAll();
            } catch (RuntimeException failure) {
                BatonLog.shutdownFailed("the elections of " + BatonLog.manager(e.getKey()), failure);
            }
        }
    }

    /**
     * @param manager a manager name
     * @return whether it has a store (only the default manager may have none)
     */
    boolean hasStore(String manager) {
        return stores.hasStore(manager);
    }

    /**
     * @param name a manager name
     * @return its {@link Locks}
     * @throws IllegalArgumentException for an undeclared manager
     */
    Locks locks(String name) {
        Locks existing = locks.get(name);
        if (existing != null) {
            return existing;
        }
        return locks.computeIfAbsent(name, n -> {
            if (config.manager(n).isPresent() && !stores.hasStore(n)) {
                // Injectable (a manager that is not used need not have a store); taking a lock fails.
                return new StorelessLocks(n, stores.noStore(n), this::locks);
            }
            LockEngine engine = engine(n);
            return new EngineLocks(
                    engine,
                    this::locks,
                    transactions,
                    new Inspection(
                            engine,
                            config.forceReleaseEnabled(),
                            () -> forceReleaseRoles.check().map(role -> "in role '" + role + "'"),
                            this::caller),
                    election -> elections(n).lead(election),
                    callerContext());
        });
    }

    /**
     * @return the server's contexts where it keeps them (Helidon MP), else nothing to enter
     */
    CallerContext callerContext() {
        return ServerContexts.CURRENT;
    }

    /**
     * @param manager a manager with a store
     * @return its elections, made on first use
     */
    private Elections elections(String manager) {
        return elections.computeIfAbsent(manager, m -> new Elections(engine(m), executors.storeCalls(), listener));
    }

    /**
     * @return the declared lock managers that have a store, the default manager's name empty
     */
    List<String> managersWithStore() {
        return config.managers().keySet().stream().filter(stores::hasStore).toList();
    }

    /**
     * @return the engines started so far (a snapshot); starts none
     */
    List<LockEngine> startedEngines() {
        return List.copyOf(engines.values());
    }

    /**
     * @return where store calls run, off the caller's thread
     */
    Executor storeCalls() {
        return executors.storeCalls();
    }

    /**
     * @param name a manager name
     * @return its engine, started on first use
     * @throws IllegalArgumentException for an undeclared manager
     */
    LockEngine engine(String name) {
        LockEngine engine = engines.get(name);
        if (engine == null) {
            engine = engines.computeIfAbsent(name, this::startEngine);
        }
        if (stopped) {
            // stop() may have listed the engines before this one joined them; a closed engine refuses to acquire.
            engine.close();
        }
        return engine;
    }

    /** Who calls, for the log of an administrative action: the thread, and the principal where there is one. */
    private String caller() {
        String thread = "thread '" + Thread.currentThread().getName() + "'";
        try {
            Instance<java.security.Principal> principal =
                    beanManager.createInstance().select(java.security.Principal.class);
            String name = principal.isResolvable() ? principal.get().getName() : null;
            return name == null ? thread + ", no principal" : thread + ", principal '" + name + "'";
        } catch (RuntimeException e) {
            // no security context on this thread (Java SE, a thread of the application's own)
            return thread + ", no principal";
        }
    }

    TransactionSupport transactions() {
        return transactions;
    }

    /**
     * @param manager a manager of an {@code @Exclusive} method
     * @return its engine
     * @throws LockException when it has no store or is shut down: the firing is skipped
     */
    LockEngine scheduleEngine(String manager) {
        if (!stores.hasStore(manager)) {
            throw stores.noStore(manager);
        }
        return engine(manager);
    }

    /**
     * @param event a skipped firing, fired as a CDI event
     */
    void scheduleSkipped(ScheduleSkipped event) {
        listener.skipped(event);
    }

    private LockEngine startEngine(String name) {
        ManagerSettings settings = config.manager(name)
                .orElseThrow(() -> new IllegalArgumentException(
                        "Lock manager '" + name + "' is not declared (list it in baton.managers)"));
        if (stopped) {
            throw new LockException(
                    BatonLog.capitalized(BatonLog.manager(name)) + " is shut down: the application is stopping");
        }
        LockStore store = stores.open(name);
        try {
            BatonLog.managerStarted(name, stores.describe(name, store), executors.description());
            EngineMetrics metrics = meters.engine(name, String.valueOf(store));
            return new LockEngine(
                    settings,
                    meters.metered(store, metrics),
                    time,
                    executors.storeCalls(),
                    listener,
                    metrics,
                    config.logKeys());
        } catch (RuntimeException | Error e) {
            store.close();
            throw e;
        }
    }
}
