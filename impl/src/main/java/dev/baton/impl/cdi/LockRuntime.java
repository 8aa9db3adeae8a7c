package dev.baton.impl.cdi;

import dev.baton.Leadership;
import dev.baton.LockConfigurationException;
import dev.baton.LockException;
import dev.baton.Locks;
import dev.baton.event.ScheduleSkipped;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.engine.CallerContext;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.leadership.LeaderPlan;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.plan.MethodPlan;
import dev.baton.impl.schedule.SchedulePlan;
import dev.baton.impl.transaction.TransactionSupport;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Reception;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticObserver;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.enterprise.inject.spi.EventContext;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

/**
 * The lock runtime as the application's beans see it, one per CDI container: the {@link Locks} producer, the plans
 * of this container's methods for the interceptors, and the start and stop of the application's {@link
 * ApplicationRuntime} (engines, stores, elections), which it shares with the containers of the application's other
 * modules where a server runs one per module ({@link ApplicationRuntimes}). Started when the application starts;
 * when it stops, the runtime tells every holder its lock is lost and releases the locks as their work ends.
 */
@ApplicationScoped
public class LockRuntime {

    /** The portable extension, or the bean of the build-compatible one. */
    @Inject
    BatonDeployment deployment;

    @Inject
    BeanManager beanManager;

    /** The application's name where it has one: the key of its shared runtime. */
    private Optional<String> application = Optional.empty();

    private ApplicationRuntime runtime;

    /** Whether this container left the runtime (it is stopped once, by whichever comes first). */
    private boolean stopped;

    @PostConstruct
    void start() {
        if (deployment.plans().config() == null) {
            throw new LockConfigurationException("Baton's configuration is invalid (see the deployment errors)");
        }
        application = ApplicationRuntimes.currentApplication();
        runtime = ApplicationRuntimes.join(application, () -> new ApplicationRuntime(deployment, beanManager));
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
        BatonLog.debug("Baton's runtime started with the application: transactions " + runtime.transactions());
        checkSharing();
        for (LeaderPlan plan : deployment.plans().leaderPlans()) {
            try {
                candidacy(plan);
            } catch (RuntimeException e) {
                // Its calls skip (the manager has no store: reported at deployment; or it is stopping).
                BatonLog.listenerFailed(
                        "joining from " + plan.method() + " the election", config().logKeys(), plan.election(), e);
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
            if (plan.sharedLimit() == dev.baton.spi.Acquisition.EXCLUSIVE || !runtime.hasStore(plan.manager())) {
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
     * Stops the runtime as the application starts to stop, before the container destroys its beans: the
     * resources a store uses may be closed by their own observers of this event (Quarkus closes its persistence
     * units here), and the locks still held must be given back through them first.
     */
    void applicationStopping(
            @Observes(notifyObserver = Reception.IF_EXISTS)
                    @Priority(Interceptor.Priority.PLATFORM_BEFORE)
                    @BeforeDestroyed(ApplicationScoped.class)
                    Object event) {
        stop();
    }

    /**
     * Stops the runtime on an event of the platform's that comes before its resources close (registered by the
     * build-compatible extension: Quarkus's {@code ShutdownEvent}).
     */
    public static final class StopObserver implements SyntheticObserver<Object> {

        @Override
        public void observe(EventContext<Object> event, Parameters params) {
            CDI.current().select(LockRuntime.class).get().stopNow();
        }
    }

    /** Stops the runtime now, once (a public method: called through the bean's client proxy). */
    public void stopNow() {
        stop();
    }

    /** Where the container fires neither event first: stops the runtime, once. */
    @PreDestroy
    void stop() {
        ApplicationRuntime joined;
        synchronized (this) {
            joined = stopped ? null : runtime;
            stopped = true;
        }
        if (joined != null) {
            ApplicationRuntimes.leave(application, joined);
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
        return runtime.locks(name);
    }

    /**
     * How a Baton thread that completes a caller's stage (an asynchronous acquisition, a {@code @Synchronized} method
     * returning a stage) enters the caller's server context.
     *
     * @return the server's contexts where it keeps them (Helidon MP), else nothing to enter
     */
    CallerContext callerContext() {
        return runtime.callerContext();
    }

    /**
     * For operations (health checks): the declared lock managers that have a store.
     *
     * @return their names, the default manager's empty
     */
    public List<String> managersWithStore() {
        return runtime.managersWithStore();
    }

    /**
     * For operations (health checks): Baton's configuration, validated.
     *
     * @return the configuration
     */
    public BatonConfig config() {
        return deployment.plans().config();
    }

    /**
     * For operations (health checks): the engines started so far; starts none.
     *
     * @return a snapshot
     */
    public List<LockEngine> startedEngines() {
        return runtime.startedEngines();
    }

    /**
     * For operations (health probes): where store calls run, off the caller's thread.
     *
     * @return the store-call executor
     */
    public java.util.concurrent.Executor storeCalls() {
        return runtime.storeCalls();
    }

    /**
     * @param name a manager name
     * @return its engine, started on first use
     * @throws IllegalArgumentException for an undeclared manager
     */
    public LockEngine engine(String name) {
        return runtime.engine(name);
    }

    TransactionSupport transactions() {
        return runtime.transactions();
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
        return runtime.scheduleEngine(manager);
    }

    /**
     * @param event a skipped firing, fired as a CDI event
     */
    void scheduleSkipped(ScheduleSkipped event) {
        runtime.scheduleSkipped(event);
    }
}
