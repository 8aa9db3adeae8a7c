package dev.baton.impl.cdi;

import dev.baton.Exclusive;
import dev.baton.LockConfigurationException;
import dev.baton.LockKeyResolver;
import dev.baton.Synchronized;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.jaxrs.LockTimeoutExceptionMapper;
import dev.baton.impl.schedule.SchedulePlan;
import dev.baton.impl.schedule.SchedulePlans;
import dev.baton.impl.store.StoreRegistry;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.BeforeBeanDiscovery;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessBean;
import jakarta.enterprise.inject.spi.ProcessManagedBean;
import jakarta.interceptor.Interceptor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Baton's CDI portable extension. It registers the interceptor (at the configured priority) and
 * Baton's beans, so applications need no {@code beans.xml} entry; validates every {@code @Synchronized}
 * and {@code @Exclusive} method and the configuration at deployment, failing it with messages that name class, method and
 * value; and builds the per-method plans the interceptor looks up.
 */
public class BatonExtension implements Extension {

    private final Map<PlanKey, MethodPlan> plans = new ConcurrentHashMap<>();
    private final Map<PlanKey, SchedulePlan> schedulePlans = new ConcurrentHashMap<>();
    private final Set<Class<? extends LockKeyResolver>> resolvers = new LinkedHashSet<>();
    private final List<String> configProblems = new ArrayList<>();
    private final List<Bean<?>> deployedBeans = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile BatonConfig config;
    private volatile StorePlan storePlan;

    /** Identifies a method of a bean class. */
    record PlanKey(Class<?> beanClass, Method method) {
    }

    void registerBeans(@Observes BeforeBeanDiscovery event, BeanManager beanManager) {
        int priority = BatonConfig.interceptorPriority(ConfigProvider.getConfig());
        event.addAnnotatedType(SynchronizedInterceptor.class, SynchronizedInterceptor.class.getName())
                .remove(a -> a.annotationType() == Priority.class)
                .add(new PriorityLiteral(priority));
        event.addAnnotatedType(ExclusiveInterceptor.class, ExclusiveInterceptor.class.getName())
                .remove(a -> a.annotationType() == Priority.class)
                .add(new PriorityLiteral(BatonConfig.exclusivePriority(ConfigProvider.getConfig())));
        event.addAnnotatedType(LockRuntime.class, LockRuntime.class.getName());
        if (jaxRsPresent()) {
            // As a bean, the 409 mapper is also found by runtimes that register providers only from CDI
            // (Helidon), not by scanning library jars.
            event.addAnnotatedType(LockTimeoutExceptionMapper.class, LockTimeoutExceptionMapper.class.getName());
        }
    }

    private static boolean jaxRsPresent() {
        try {
            Class.forName("jakarta.ws.rs.ext.ExceptionMapper", false, BatonExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    void indexBean(@Observes ProcessBean<?> event) {
        deployedBeans.add(event.getBean());
    }

    /**
     * @return every bean of the deployment, for lookups the container's visibility rules would refuse
     */
    CdiBeanLookup beans(BeanManager beanManager) {
        return new CdiBeanLookup(beanManager, deployedBeans);
    }

    <T> void planMethods(@Observes ProcessManagedBean<T> event) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        if (type.isAnnotationPresent(Interceptor.class)) {
            return;
        }
        Synchronized onClass = type.getAnnotation(Synchronized.class);
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            Synchronized onMethod = method.getAnnotation(Synchronized.class);
            Method javaMethod = method.getJavaMember();
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
                MethodPlan plan = MethodPlans.build(type.getJavaClass(), javaMethod, annotation, onMethod == null, cfg);
                plans.put(new PlanKey(type.getJavaClass(), javaMethod), plan);
                if (annotation.resolver() != LockKeyResolver.class) {
                    resolvers.add(annotation.resolver());
                }
            } catch (LockConfigurationException e) {
                event.addDefinitionError(e);
            }
        }
    }

    <T> void planSchedules(@Observes ProcessManagedBean<T> event) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        if (type.isAnnotationPresent(Interceptor.class)) {
            return;
        }
        if (type.isAnnotationPresent(Exclusive.class)) {
            event.addDefinitionError(new LockConfigurationException("@Exclusive on the class " + type.getJavaClass().getName()
                    + ": put it on each scheduled method instead (each schedule has its own key)"));
            return;
        }
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            Exclusive annotation = method.getAnnotation(Exclusive.class);
            if (annotation == null || method.getJavaMember().isBridge()) {
                continue;
            }
            BatonConfig cfg = config();
            if (cfg == null) {
                return; // the configuration itself is invalid: reported after validation
            }
            try {
                SchedulePlan plan = SchedulePlans.build(type.getJavaClass(), method.getJavaMember(), annotation,
                        method.getAnnotations(), cfg);
                schedulePlans.put(new PlanKey(type.getJavaClass(), method.getJavaMember()), plan);
            } catch (LockConfigurationException e) {
                event.addDefinitionError(e);
            }
        }
    }

    void validate(@Observes AfterDeploymentValidation event, BeanManager beanManager) {
        BatonConfig cfg = config();
        if (cfg == null) {
            configProblems.forEach(problem -> event.addDeploymentProblem(new LockConfigurationException(problem)));
            return;
        }
        for (Class<? extends LockKeyResolver> resolver : resolvers) {
            if (!beans(beanManager).exists(resolver)) {
                event.addDeploymentProblem(new LockConfigurationException("@Synchronized names the key resolver "
                        + resolver.getName() + ", but there is no such CDI bean (give it a bean-defining annotation "
                        + "such as @ApplicationScoped)"));
            }
        }
        try {
            StoreRegistry.validate(cfg, beans(beanManager));
        } catch (LockConfigurationException e) {
            event.addDeploymentProblem(e);
        }
        List<String> storeProblems = new ArrayList<>();
        StorePlan stores = StorePlan.resolve(cfg, beans(beanManager), storeProblems);
        storeProblems.forEach(problem -> event.addDeploymentProblem(new LockConfigurationException(problem)));
        for (MethodPlan plan : plans.values()) {
            if (storeProblems.isEmpty() && stores.source(plan.manager()) instanceof StorePlan.None none) {
                event.addDeploymentProblem(new LockConfigurationException("@Synchronized on " + plan.description() + ": "
                        + none.reason()));
            }
        }
        for (SchedulePlan plan : schedulePlans.values()) {
            if (storeProblems.isEmpty() && stores.source(plan.manager()) instanceof StorePlan.None none) {
                event.addDeploymentProblem(new LockConfigurationException("@Exclusive on " + plan.method() + "(): "
                        + none.reason()));
            }
        }
        storePlan = stores;
    }

    /**
     * @return where each manager gets its store, decided at deployment
     */
    StorePlan storePlan() {
        return storePlan;
    }

    /**
     * The plan of a method of a bean class, or null if it was not processed at deployment.
     *
     * @param beanClass the class (or a subclass or proxy of it)
     * @param method the method
     * @return the plan, or null
     */
    MethodPlan plan(Class<?> beanClass, Method method) {
        for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
            MethodPlan plan = plans.get(new PlanKey(c, method));
            if (plan != null) {
                return plan;
            }
        }
        return null;
    }

    /**
     * The plan of an {@code @Exclusive} method of a bean class, or null if it was not processed at deployment.
     *
     * @param beanClass the class (or a subclass or proxy of it)
     * @param method the method
     * @return the plan, or null
     */
    SchedulePlan schedulePlan(Class<?> beanClass, Method method) {
        for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
            SchedulePlan plan = schedulePlans.get(new PlanKey(c, method));
            if (plan != null) {
                return plan;
            }
        }
        return null;
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
        return !java.lang.reflect.Modifier.isStatic(m) && !java.lang.reflect.Modifier.isPrivate(m)
                && !java.lang.reflect.Modifier.isFinal(m) && method.getDeclaringClass() != Object.class;
    }
}
