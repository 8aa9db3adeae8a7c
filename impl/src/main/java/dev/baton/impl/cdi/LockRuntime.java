package dev.baton.impl.cdi;

import dev.baton.Leadership;
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
import dev.baton.impl.leadership.LeaderPlan;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.metrics.Meters;
import dev.baton.impl.plan.MethodPlan;
import dev.baton.impl.runtime.RenewalExecutors;
import dev.baton.impl.runtime.ServerContexts;
import dev.baton.impl.runtime.StorelessLocks;
import dev.baton.impl.schedule.SchedulePlan;
import dev.baton.impl.time.EngineTime;
import dev.baton.impl.transaction.TransactionSupport;
import dev.baton.spi.LockStore;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's lock runtime: one {@link LockEngine} per lock manager (started at first use, so
 * stores connect lazily), the renewal scheduler, JTA support and events; started when the application
 * starts. When the application stops
 * (or the JVM exits first), tells every holder its lock is lost, releases each lock as its work ends
 * (waiting at most {@code baton.shutdown-grace}), leaves a lock whose work still runs to expire, and
 * closes the stores ({@link LockEngine#closeAll}).
 */
@ApplicationScoped
public class LockRuntime {

    private final Map<String, LockEngine> engines = new ConcurrentHashMap<>();
    private final Map<String, Locks> locks = new ConcurrentHashMap<>();
    private final Map<String, Elections> elections = new ConcurrentHashMap<>();

    /** The portable extension, or the bean of the build-compatible one. */
    @Inject
    BatonDeployment deployment;

    @Inject
    BeanManager beanManager;

    private BatonConfig config;
    private ManagerStores stores;
    private RenewalExecutors executors;
    private TransactionSupport transactions;
    private CdiLockListener listener;
    private Meters meters;
    /** The engines' time: the system's, unless the application provides an {@link EngineTime} bean (tests on virtual time). */
    private EngineTime time;
    /** Set at application stop: no engine starts after it. */
    private volatile boolean stopped;
    /** Releases the locks when the JVM exits without stopping CDI first (Java SE, Helidon: SIGTERM early in startup). */
    private Thread exitHook;

    @PostConstruct
    void start() {
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
        jakarta.enterprise.inject.Instance<EngineTime> times =
                beanManager.createInstance().select(EngineTime.class);
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

    /**
     * Starts the runtime with the application, before the application's own startup observers, on the
     * container's thread: JTA and the managed executors are looked up in {@code java:comp}, which threads
     * of the application's own (a message consumer, a plain thread) do not see, and what is found is kept.
     * (The container created this bean, running {@link #start()}, to deliver the event.) Stores still
     * connect at their first use.
     */
    void applicationStarted(
            @Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) @Initialized(ApplicationScoped.class)
                    Object event) {
        BatonLog.debug("Baton's runtime started with the application: transactions " + transactions);
        checkSharing();
        for (LeaderPlan plan : deployment.plans().leaderPlans()) {
            try {
                candidacy(plan);
            } catch (RuntimeException e) {
                // Its calls skip (the manager has no store: reported at deployment; or it is stopping).
                BatonLog.listenerFailed("joining the election '" + plan.election() + "' of " + plan.method(), e);
            }
        }
    }

    /**
     * Fails the start of an application whose read locks or permits ({@code @Synchronized(type = READ)},
     * {@code permits}) use a store that keeps no shared leases: only the store, made now (it connects later),
     * knows whether it does (the JPA store's advisory mode does not).
     */
    private void checkSharing() {
        for (MethodPlan plan : deployment.plans().methodPlans()) {
            if (plan.sharedLimit() == dev.baton.spi.Acquisition.EXCLUSIVE || !stores.hasStore(plan.manager())) {
                continue;
            }
            try {
                engine(plan.manager()).checkSharing(plan.description(), plan.sharedLimit());
            } catch (UnsupportedOperationException e) {
                // Thrown while the application starts, as a deployment problem: the container fails the deployment.
                throw new jakarta.enterprise.inject.spi.DeploymentException(new LockConfigurationException(
                        "@Synchronized on " + plan.description() + ": " + e.getMessage()));
            }
        }
    }

    /**
     * @param plan a {@code @Leader} method's plan
     * @return this instance's candidacy in its election, joined if it has not been
     */
    Leadership candidacy(LeaderPlan plan) {
        return locks(plan.manager()).lead(plan.election());
    }

    /**
     * @param manager a manager with a store
     * @return its elections, made on first use
     */
    private Elections elections(String manager) {
        return elections.computeIfAbsent(manager, m -> new Elections(engine(m), executors.storeCalls(), listener));
    }

    @PreDestroy
    void stop() {
        releaseAll();
        if (executors != null) {
            executors.shutdown();
        }
        if (meters != null) {
            meters.close();
        }
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
        BatonConfig settings = config;
        LockEngine.closeAll(
                List.copyOf(engines.values()),
                Duration.ofMillis(settings == null ? 0 : settings.shutdownGraceMillis()));
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
     * The default lock manager, for injection.
     *
     * @return the default manager's {@link Locks}
     */
    @Produces
    @Default
    Locks defaultLocks() {
        return locks("");
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
                    new Inspection(engine, config.forceReleaseEnabled(), this::caller),
                    election -> elections(n).lead(election),
                    callerContext());
        });
    }

    /**
     * How a Baton thread that completes a caller's stage (an asynchronous acquisition, a {@code @Synchronized} method
     * returning a stage) enters the caller's server context.
     *
     * @return the server's contexts where it keeps them (Helidon MP), else nothing to enter
     */
    CallerContext callerContext() {
        return ServerContexts.CURRENT;
    }

    /**
     * For operations (health checks): the declared lock managers that have a store.
     *
     * @return their names, the default manager's empty
     */
    public List<String> managersWithStore() {
        return config.managers().keySet().stream().filter(stores::hasStore).toList();
    }

    /**
     * For operations (health checks): the engines started so far; starts none.
     *
     * @return a snapshot
     */
    public List<LockEngine> startedEngines() {
        return List.copyOf(engines.values());
    }

    /**
     * For operations (health probes): where store calls run, off the caller's thread.
     *
     * @return the store-call executor
     */
    public java.util.concurrent.Executor storeCalls() {
        return executors.storeCalls();
    }

    /**
     * @param name a manager name
     * @return its engine, started on first use
     * @throws IllegalArgumentException for an undeclared manager
     */
    public LockEngine engine(String name) {
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
            jakarta.enterprise.inject.Instance<java.security.Principal> principal =
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
     * @param beanClass the intercepted bean's class, or the method's declaring class
     * @param method the intercepted method
     * @return its plan (see {@link DeploymentPlans#plan(Class, Method)})
     */
    MethodPlan plan(Class<?> beanClass, Method method) {
        return deployment.plans().plan(beanClass, method);
    }

    /**
     * @param beanClass the intercepted bean's class, or the method's declaring class
     * @param method the intercepted method
     * @return its plan (see {@link DeploymentPlans#schedulePlan(Class, Method)})
     */
    SchedulePlan schedulePlan(Class<?> beanClass, Method method) {
        return deployment.plans().schedulePlan(beanClass, method);
    }

    /**
     * @param beanClass the intercepted bean's class, or the method's declaring class
     * @param method the intercepted method
     * @return its plan (see {@link DeploymentPlans#leaderPlan(Class, Method)})
     */
    LeaderPlan leaderPlan(Class<?> beanClass, Method method) {
        return deployment.plans().leaderPlan(beanClass, method);
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
                    settings, meters.metered(store, metrics), time, executors.storeCalls(), listener, metrics);
        } catch (RuntimeException | Error e) {
            store.close();
            throw e;
        }
    }
}
