package dev.baton.impl.cdi;

import dev.baton.Exclusive;
import dev.baton.Leader;
import dev.baton.Synchronized;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.Validation;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.util.LinkedHashSet;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Baton's CDI build-compatible extension, for CDI Lite containers that run no portable extension
 * (Quarkus's ArC). It does what {@link BatonExtension} does, through the same code: adds Baton's beans and
 * interceptors at their configured priorities ({@link BatonBeans}), validates every {@code @Synchronized} and
 * {@code @Exclusive} method of every bean with the same messages ({@link DeploymentPlans}), failing the
 * build, and registers the bean that gives the runtime its plans ({@link LiteDeployment}).
 *
 * <p>What needs the application's beans as objects (the stores and key resolvers it names) is checked when
 * the application starts, and the plans the interceptors use are built then, by reflection, from the bean
 * classes found here: build-time objects do not reach the running application.
 *
 * <p>Full CDI containers (Weld) run build-compatible extensions too: this one is skipped where the portable
 * one runs, so Baton's beans are added and its rules applied once.
 */
@SkipIfPortableExtensionPresent(BatonExtension.class)
public class BatonBuildCompatibleExtension implements BuildCompatibleExtension {

    private static final String QUARKUS_SHUTDOWN_EVENT = "io.quarkus.runtime.ShutdownEvent";

    /** The bean classes with {@code @Synchronized}, {@code @Exclusive} or {@code @Leader} methods, by binary name. */
    private final Set<String> beanClasses = new LinkedHashSet<>();

    /**
     * @param scanned the classes the container discovers
     */
    @Discovery
    public void addBeans(ScannedClasses scanned) {
        BatonBeans.classes().forEach(beanClass -> scanned.add(beanClass.getName()));
    }

    /**
     * @param type an interceptor of Baton's, given its configured priority
     */
    @Enhancement(types = {SynchronizedInterceptor.class, ExclusiveInterceptor.class})
    public void prioritize(ClassConfig type) {
        Class<?> interceptor = type.info().name().equals(SynchronizedInterceptor.class.getName())
                ? SynchronizedInterceptor.class
                : ExclusiveInterceptor.class;
        BatonBeans.priority(interceptor, ConfigProvider.getConfig())
                .ifPresent(priority -> type.removeAnnotation(
                                annotation -> annotation.name().equals(Priority.class.getName()))
                        .addAnnotation(new PriorityLiteral(priority)));
    }

    /**
     * @param bean a bean of the application, remembered when it has Baton's annotations
     */
    @Registration(types = Object.class)
    public void collect(BeanInfo bean) {
        // An interceptor carries its binding on the class: not a bean to plan (some containers report it here).
        if (bean.isClassBean()
                && !bean.isInterceptor()
                && !bean.declaringClass().hasAnnotation(Interceptor.class)
                && annotated(bean.declaringClass())) {
            beanClasses.add(bean.declaringClass().name());
        }
    }

    /**
     * @param components where the bean that carries the plans to the runtime is added
     */
    @Synthesis
    public void registerDeployment(SyntheticComponents components) {
        components
                .addBean(LiteDeployment.class)
                .type(LiteDeployment.class)
                .type(BatonDeployment.class)
                .scope(Singleton.class)
                .withParam(LiteDeployment.BEAN_CLASSES, beanClasses.toArray(String[]::new))
                .createWith(LiteDeployment.Creator.class);
        Class<?> shutdown = quarkusShutdownEvent();
        if (shutdown != null) {
            stopOn(components, shutdown);
        }
    }

    /**
     * Quarkus runs its shutdown tasks (closing the persistence units, the data sources) before it ends the
     * application's context; its {@code ShutdownEvent} comes before them, with the beans still usable. The runtime
     * stops there, so the locks still held are given back through the resources their stores use.
     *
     * @return Quarkus's shutdown event, or null outside Quarkus
     */
    private static Class<?> quarkusShutdownEvent() {
        try {
            return Class.forName(QUARKUS_SHUTDOWN_EVENT, false, LiteDeployment.classLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** Observes {@code event} (a type known only by name here) with the runtime's stop, ahead of other observers. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void stopOn(SyntheticComponents components, Class<?> event) {
        components
                .addObserver((Class) event)
                .priority(Interceptor.Priority.PLATFORM_BEFORE)
                .observeWith((Class) LockRuntime.StopObserver.class);
    }

    /**
     * Applies the method rules now, so a bad method fails the build with the message a full container's
     * deployment gives.
     *
     * @param messages where each problem is reported as an error
     */
    @Validation
    public void validate(Messages messages) {
        DeploymentPlans rules = new DeploymentPlans();
        for (String name : beanClasses) {
            Class<?> beanClass;
            try {
                beanClass = Class.forName(name, false, LiteDeployment.classLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                continue; // not loadable while building: its methods are validated when the application starts
            }
            LiteDeployment.plan(rules, beanClass, messages::error);
        }
        rules.checkConfig(messages::error);
    }

    private static boolean annotated(ClassInfo type) {
        for (ClassInfo c = type; c != null; c = c.superClassDeclaration()) {
            if (c.hasAnnotation(Synchronized.class)
                    || c.hasAnnotation(Exclusive.class)
                    || c.hasAnnotation(Leader.class)) {
                return true;
            }
        }
        for (MethodInfo method : type.methods()) {
            if (method.hasAnnotation(Synchronized.class)
                    || method.hasAnnotation(Exclusive.class)
                    || method.hasAnnotation(Leader.class)) {
                return true;
            }
        }
        return false;
    }
}
