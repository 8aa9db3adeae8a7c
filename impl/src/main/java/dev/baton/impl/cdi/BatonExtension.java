package dev.baton.impl.cdi;

import dev.baton.Exclusive;
import dev.baton.Leader;
import dev.baton.Synchronized;
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
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Baton's CDI portable extension. It registers the interceptor (at the configured priority) and
 * Baton's beans, so applications need no {@code beans.xml} entry; validates every {@code @Synchronized}
 * and {@code @Exclusive} method and the configuration at deployment, failing it with messages that name class, method and
 * value; and builds the per-method plans the interceptor looks up.
 */
public class BatonExtension implements Extension, BatonDeployment {

    private final DeploymentPlans deployment = new DeploymentPlans();
    /** The beans Baton may look up, as the container deployed them. */
    private final List<Bean<?>> deployedBeans = new java.util.concurrent.CopyOnWriteArrayList<>();

    void registerBeans(@Observes BeforeBeanDiscovery event, BeanManager beanManager) {
        for (Class<?> beanClass : BatonBeans.classes()) {
            var type = event.addAnnotatedType(beanClass, beanClass.getName());
            BatonBeans.priority(beanClass, ConfigProvider.getConfig())
                    .ifPresent(priority -> type.remove(a -> a.annotationType() == Priority.class)
                            .add(new PriorityLiteral(priority)));
        }
    }

    /** Set at the first bean: the store factories are on the class path by then. */
    private volatile NeededBeans needed;

    void recordBean(@Observes ProcessBean<?> event) {
        NeededBeans types = needed;
        if (types == null) {
            types = NeededBeans.find();
            needed = types;
        }
        if (types.needed(event.getBean())) {
            deployedBeans.add(event.getBean());
        }
    }

    /**
     * @return the deployment's beans of the types Baton looks up ({@link NeededBeans}), for lookups the
     *     container's visibility rules would refuse
     */
    @Override
    public CdiBeanLookup beans(BeanManager beanManager) {
        return new CdiBeanLookup(beanManager, deployedBeans);
    }

    /**
     * @return the beans remembered from {@code ProcessBean}, for tests
     */
    List<Bean<?>> recordedBeans() {
        return List.copyOf(deployedBeans);
    }

    <T> void planMethods(@Observes ProcessManagedBean<T> event) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        if (type.isAnnotationPresent(Interceptor.class)) {
            return;
        }
        deployment.planMethods(
                type.getJavaClass(), type.getAnnotation(Synchronized.class), methods(type), event::addDefinitionError);
    }

    <T> void planSchedules(@Observes ProcessManagedBean<T> event) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        if (type.isAnnotationPresent(Interceptor.class)) {
            return;
        }
        deployment.planSchedules(
                type.getJavaClass(),
                type.isAnnotationPresent(Exclusive.class),
                methods(type),
                event::addDefinitionError);
    }

    <T> void planLeaders(@Observes ProcessManagedBean<T> event) {
        AnnotatedType<T> type = event.getAnnotatedBeanClass();
        if (type.isAnnotationPresent(Interceptor.class)) {
            return;
        }
        deployment.planLeaders(
                type.getJavaClass(), type.getAnnotation(Leader.class), methods(type), event::addDefinitionError);
    }

    /** The methods as the container shows them: other extensions may have changed their annotations. */
    private static <T> List<DeploymentPlans.BeanMethod> methods(AnnotatedType<T> type) {
        List<DeploymentPlans.BeanMethod> methods = new ArrayList<>();
        for (AnnotatedMethod<? super T> method : type.getMethods()) {
            methods.add(new DeploymentPlans.BeanMethod(
                    method.getJavaMember(),
                    method.getAnnotation(Synchronized.class),
                    method.getAnnotation(Exclusive.class),
                    method.getAnnotations()));
        }
        return methods;
    }

    void validate(@Observes AfterDeploymentValidation event, BeanManager beanManager) {
        deployment.validate(beans(beanManager), event::addDeploymentProblem);
    }

    @Override
    public DeploymentPlans plans() {
        return deployment;
    }
}
