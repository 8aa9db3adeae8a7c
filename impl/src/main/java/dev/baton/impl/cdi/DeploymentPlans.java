package dev.baton.impl.cdi;

import dev.baton.Exclusive;
import dev.baton.Leader;
import dev.baton.LockConfigurationException;
import dev.baton.LockKeyResolver;
import dev.baton.Synchronized;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.config.KnownKeys;
import dev.baton.impl.leadership.LeaderPlan;
import dev.baton.impl.logging.BatonLog;
import dev.baton.impl.plan.BridgeMethods;
import dev.baton.impl.plan.MethodPlan;
import dev.baton.impl.plan.MethodPlans;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.impl.schedule.SchedulePlan;
import dev.baton.impl.schedule.SchedulePlans;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.CDI;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Baton's deployment rules, one implementation for both CDI extensions (the portable {@link BatonExtension}
 * and the build-compatible {@link BatonBuildCompatibleExtension}): reads and validates the configuration,
 * validates every {@code @Synchronized} and {@code @Exclusive} method of a bean class and builds its plan,
 * and checks the resolvers and stores against the deployed beans. The extensions only feed it what their
 * container shows them; every problem is a {@link LockConfigurationException} with the same message on
 * every runtime.
 */
final class DeploymentPlans {

    /** A key resolver's bean, looked up when a method that names it is first invoked. */
    private static final Function<Class<? extends LockKeyResolver>, LockKeyResolver> RESOLVERS =
            type -> CDI.current().select(type).get();

    private final Map<PlanKey, MethodPlan> plans = new ConcurrentHashMap<>();
    private final Map<PlanKey, SchedulePlan> schedulePlans = new ConcurrentHashMap<>();
    private final Map<PlanKey, LeaderPlan> leaderPlans = new ConcurrentHashMap<>();
    private final Set<Class<? extends LockKeyResolver>> resolvers =
            java.util.Collections.synchronizedSet(new LinkedHashSet<>());
    private final List<String> configProblems = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile BatonConfig config;
    private volatile StorePlan storePlan;

    /** Identifies a method of a bean class. */
    record PlanKey(Class<?> beanClass, Method method) {}

    /**
     * A method of a bean class as the container shows it: its annotations may differ from the Java
     * method's (a portable extension may have changed them).
     *
     * @param method the Java method
     * @param synchronizedOnMethod its {@code @Synchronized}, or null
     * @param exclusive its {@code @Exclusive}, or null
     * @param annotations all its annotations
     */
    record BeanMethod(
            Method method, Synchronized synchronizedOnMethod, Exclusive exclusive, Collection<Annotation> annotations) {

        /**
         * @param method a Java method
         * @return the method with its Java annotations
         */
        static BeanMethod of(Method method) {
            return new BeanMethod(
                    method,
                    method.getAnnotation(Synchronized.class),
                    method.getAnnotation(Exclusive.class),
                    List.of(method.getAnnotations()));
        }
    }

    /**
     * Validates the {@code @Synchronized} methods of a bean class and plans them.
     *
     * @param beanClass the bean class
     * @param onClass its {@code @Synchronized}, or null
     * @param methods its methods, inherited ones included
     * @param errors receives each definition error
     */
    void planMethods(
            Class<?> beanClass,
            Synchronized onClass,
            Collection<BeanMethod> methods,
            Consumer<LockConfigurationException> errors) {
        for (BeanMethod method : methods) {
            Synchronized onMethod = method.synchronizedOnMethod();
            Method javaMethod = method.method();
            if (javaMethod.isBridge()) {
                // A compiler-made bridge (a generic interface or superclass implemented) carries the annotation
                // of the real method but erased parameter types; calls go through the real method, planned itself.
                continue;
            }
            if (onMethod == null && (onClass == null || !interceptable(javaMethod))) {
                continue;
            }
            BatonConfig cfg = config();
            if (cfg == null) {
                return; // the configuration itself is invalid: reported after validation
            }
            try {
                Synchronized annotation = onMethod != null ? onMethod : onClass;
                MethodPlan plan =
                        MethodPlans.build(beanClass, javaMethod, annotation, onMethod == null, cfg, RESOLVERS);
                plans.put(new PlanKey(beanClass, javaMethod), plan);
                if (annotation.resolver() != LockKeyResolver.class) {
                    resolvers.add(annotation.resolver());
                }
            } catch (LockConfigurationException e) {
                errors.accept(e);
            }
        }
    }

    /**
     * Validates the {@code @Exclusive} methods of a bean class and plans them.
     *
     * @param beanClass the bean class
     * @param exclusiveOnClass whether the class itself carries {@code @Exclusive} (an error)
     * @param methods its methods, inherited ones included
     * @param errors receives each definition error
     */
    void planSchedules(
            Class<?> beanClass,
            boolean exclusiveOnClass,
            Collection<BeanMethod> methods,
            Consumer<LockConfigurationException> errors) {
        if (exclusiveOnClass) {
            errors.accept(new LockConfigurationException("@Exclusive on the class " + beanClass.getName()
                    + ": put it on each scheduled method instead (each schedule has its own key)"));
            return;
        }
        for (BeanMethod method : methods) {
            Exclusive annotation = method.exclusive();
            if (annotation == null || method.method().isBridge()) {
                continue;
            }
            BatonConfig cfg = config();
            if (cfg == null) {
                return; // the configuration itself is invalid: reported after validation
            }
            try {
                SchedulePlan plan =
                        SchedulePlans.build(beanClass, method.method(), annotation, method.annotations(), cfg);
                schedulePlans.put(new PlanKey(beanClass, method.method()), plan);
            } catch (LockConfigurationException e) {
                errors.accept(e);
            }
        }
    }

    /**
     * Validates the {@code @Leader} methods of a bean class and plans them.
     *
     * @param beanClass the bean class
     * @param onClass its {@code @Leader}, or null
     * @param methods its methods, inherited ones included
     * @param errors receives each definition error
     */
    void planLeaders(
            Class<?> beanClass,
            Leader onClass,
            Collection<BeanMethod> methods,
            Consumer<LockConfigurationException> errors) {
        for (BeanMethod method : methods) {
            Leader onMethod = leader(method.annotations());
            Method javaMethod = method.method();
            if (javaMethod.isBridge() || (onMethod == null && (onClass == null || !interceptable(javaMethod)))) {
                continue;
            }
            try {
                leaderPlans.put(
                        new PlanKey(beanClass, javaMethod),
                        LeaderPlan.build(beanClass, javaMethod, onMethod != null ? onMethod : onClass));
            } catch (LockConfigurationException e) {
                errors.accept(e);
            }
        }
    }

    private static Leader leader(Collection<Annotation> annotations) {
        for (Annotation annotation : annotations) {
            if (annotation instanceof Leader leader) {
                return leader;
            }
        }
        return null;
    }

    /** @return the plans of the {@code @Synchronized} methods found at deployment */
    List<MethodPlan> methodPlans() {
        return List.copyOf(plans.values());
    }

    /**
     * @return the plans of the {@code @Leader} methods found at deployment: their elections are joined at start
     */
    List<LeaderPlan> leaderPlans() {
        return List.copyOf(leaderPlans.values());
    }

    /**
     * The plan of a {@code @Leader} method of a bean, keyed as {@link #plan(Class, Method)} keys.
     *
     * @param beanClass the intercepted bean's class, or the method's declaring class
     * @param method the method the container reports
     * @return the plan
     * @throws LockConfigurationException if neither the method nor the class has {@code @Leader}, or the plan is invalid
     */
    LeaderPlan leaderPlan(Class<?> beanClass, Method method) {
        return lookup(leaderPlans, beanClass, method, (c, m) -> {
            Leader annotation = m.getAnnotation(Leader.class);
            Leader onClass = c.getAnnotation(Leader.class);
            if (annotation == null && onClass == null) {
                throw new LockConfigurationException("No @Leader found for " + c.getName() + "." + m.getName());
            }
            return LeaderPlan.build(c, m, annotation != null ? annotation : onClass);
        });
    }

    /**
     * The checks that need every bean: the configuration, the key resolvers, the stores of the planned methods.
     *
     * @param beans the deployment's beans
     * @param problems receives each deployment problem
     */
    void validate(CdiBeanLookup beans, Consumer<LockConfigurationException> problems) {
        if (!checkConfig(problems)) {
            return;
        }
        BatonConfig cfg = config();
        reportUnknownKeys(cfg);
        for (Class<? extends LockKeyResolver> resolver : resolvers) {
            if (!beans.exists(resolver)) {
                problems.accept(new LockConfigurationException("@Synchronized names the key resolver "
                        + resolver.getName() + ", but there is no such CDI bean (give it a bean-defining annotation "
                        + "such as @ApplicationScoped)"));
            }
        }
        try {
            StoreRegistry.validate(cfg, beans);
        } catch (LockConfigurationException e) {
            problems.accept(e);
        }
        List<String> storeProblems = new ArrayList<>();
        StorePlan stores = StorePlan.resolve(cfg, beans, storeProblems);
        storeProblems.forEach(problem -> problems.accept(new LockConfigurationException(problem)));
        for (MethodPlan plan : plans.values()) {
            if (storeProblems.isEmpty() && stores.source(plan.manager()) instanceof StorePlan.None none) {
                problems.accept(new LockConfigurationException(
                        "@Synchronized on " + plan.description() + ": " + none.reason()));
            }
        }
        for (LeaderPlan plan : leaderPlans.values()) {
            if (storeProblems.isEmpty() && stores.source(plan.manager()) instanceof StorePlan.None none) {
                problems.accept(new LockConfigurationException("@Leader on " + plan.method() + "(): " + none.reason()));
            }
        }
        for (SchedulePlan plan : schedulePlans.values()) {
            if (storeProblems.isEmpty() && stores.source(plan.manager()) instanceof StorePlan.None none) {
                problems.accept(
                        new LockConfigurationException("@Exclusive on " + plan.method() + "(): " + none.reason()));
            }
        }
        storePlan = stores;
    }

    /**
     * Warns about each configured {@code baton.*} key nothing reads: a misspelling, a manager that is not listed, a
     * setting the store does not have. A warning, not a failure: the key is ignored, as it was before this check,
     * and a key meant for a newer or older Baton must not stop an application from starting.
     */
    private static void reportUnknownKeys(BatonConfig cfg) {
        List<String> listed =
                cfg.managers().keySet().stream().filter(m -> !m.isEmpty()).toList();
        KnownKeys known;
        try {
            known = KnownKeys.of(listed, StoreRegistry.factories());
        } catch (LockConfigurationException e) {
            return; // a store that cannot be loaded: StoreRegistry.validate reports it next
        }
        for (KnownKeys.Unknown unknown : known.unknown(cfg.keysStartingWith(BatonConfig.PREFIX))) {
            if (unknown.unlistedManager().isPresent()) {
                BatonLog.keyOfNoManager(unknown.key(), unknown.unlistedManager().get(), listed, unknown.closest());
            } else {
                BatonLog.unknownKey(unknown.key(), unknown.closest());
            }
        }
    }

    /**
     * @param problems receives each problem of the configuration
     * @return whether the configuration is valid
     */
    boolean checkConfig(Consumer<LockConfigurationException> problems) {
        if (config() != null) {
            return true;
        }
        configProblems.forEach(problem -> problems.accept(new LockConfigurationException(problem)));
        return false;
    }

    /**
     * @return where each manager gets its store, decided at deployment
     */
    StorePlan storePlan() {
        return storePlan;
    }

    /**
     * The plan of a method of a bean: the one built at deployment, else (a bean the container did not show the
     * extension, a bridge method a container reports) built now, validated, and kept. Keyed like SmallRye Fault
     * Tolerance keys its operations: by the intercepted bean's class, so a method that two beans inherit has
     * one plan (and one default key) per bean.
     *
     * @param beanClass the intercepted bean's class, or the method's declaring class where the container does not
     *     tell the bean
     * @param method the method the container reports
     * @return the plan
     * @throws LockConfigurationException if the method has no {@code @Synchronized} or its plan is invalid
     */
    MethodPlan plan(Class<?> beanClass, Method method) {
        return lookup(plans, beanClass, method, this::lateBuild);
    }

    /**
     * The plan of an {@code @Exclusive} method of a bean, keyed as {@link #plan(Class, Method)} keys.
     *
     * @param beanClass the intercepted bean's class, or the method's declaring class
     * @param method the method the container reports
     * @return the plan
     * @throws LockConfigurationException if the method has no {@code @Exclusive} or its plan is invalid
     */
    SchedulePlan schedulePlan(Class<?> beanClass, Method method) {
        return lookup(schedulePlans, beanClass, method, this::lateSchedule);
    }

    /**
     * The class a method's plan is keyed by: the intercepted bean's; the method's declaring class where the
     * container does not tell the bean, or where the bean's class is not the method's (a producer's bean
     * intercepted through an {@code InterceptionFactory} is the producer's class).
     *
     * @param bean the intercepted bean, or null
     * @param method the intercepted method
     * @return the class to key its plan by
     */
    static Class<?> beanClass(Bean<?> bean, Method method) {
        Class<?> declaring = method.getDeclaringClass();
        Class<?> beanClass = bean != null ? bean.getBeanClass() : declaring;
        return declaring.isAssignableFrom(beanClass) ? beanClass : declaring;
    }

    /**
     * One lookup for both kinds of plan: the plan of the method as reported, else of the real method behind a
     * bridge, else built now; kept under the reported method so the next call is one map lookup.
     */
    private static <P> P lookup(
            Map<PlanKey, P> plans, Class<?> beanClass, Method method, BiFunction<Class<?>, Method, P> build) {
        PlanKey key = new PlanKey(beanClass, method);
        P plan = plans.get(key);
        if (plan == null) {
            Method real = BridgeMethods.unbridged(method);
            plan = plans.get(new PlanKey(beanClass, real));
            if (plan == null) {
                plan = build.apply(beanClass, real);
            }
            P raced = plans.putIfAbsent(key, plan);
            plan = raced != null ? raced : plan;
        }
        return plan;
    }

    private SchedulePlan lateSchedule(Class<?> beanClass, Method method) {
        Exclusive annotation = method.getAnnotation(Exclusive.class);
        if (annotation == null) {
            throw new LockConfigurationException(
                    "No @Exclusive found for " + beanClass.getName() + "." + method.getName());
        }
        return SchedulePlans.build(beanClass, method, annotation, List.of(method.getAnnotations()), requireConfig());
    }

    /** Plans a method the deployment did not show: the same rules, the same bean class for its default key. */
    private MethodPlan lateBuild(Class<?> beanClass, Method method) {
        Synchronized onMethod = method.getAnnotation(Synchronized.class);
        // @Synchronized is @Inherited: a bean class sees its superclass's.
        Synchronized onClass = beanClass.getAnnotation(Synchronized.class);
        if (onMethod == null && onClass == null) {
            throw new LockConfigurationException(
                    "No @Synchronized found for " + beanClass.getName() + "." + method.getName());
        }
        return MethodPlans.build(
                beanClass, method, onMethod != null ? onMethod : onClass, onMethod == null, requireConfig(), RESOLVERS);
    }

    private BatonConfig requireConfig() {
        BatonConfig cfg = config();
        if (cfg == null) {
            throw new LockConfigurationException("Baton's configuration is invalid (see the deployment errors)");
        }
        return cfg;
    }

    /**
     * @return the validated configuration, or null when it is invalid
     */
    BatonConfig config() {
        BatonConfig cfg = config;
        if (cfg == null && configProblems.isEmpty()) {
            try {
                cfg = BatonConfig.read(ConfigProvider.getConfig());
                config = cfg;
            } catch (LockConfigurationException e) {
                configProblems.add(e.getMessage());
            }
        }
        return cfg;
    }

    private static boolean interceptable(Method method) {
        int m = method.getModifiers();
        return !Modifier.isStatic(m)
                && !Modifier.isPrivate(m)
                && !Modifier.isFinal(m)
                && method.getDeclaringClass() != Object.class;
    }
}
