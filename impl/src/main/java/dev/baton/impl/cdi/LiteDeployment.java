package dev.baton.impl.cdi;

import dev.baton.Exclusive;
import dev.baton.Leader;
import dev.baton.LockConfigurationException;
import dev.baton.Synchronized;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.build.compatible.spi.Parameters;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticBeanCreator;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The deployment as {@link BatonBuildCompatibleExtension} leaves it to the running application (CDI Lite):
 * created when the application starts, from the bean classes found at build time, it builds their plans
 * and checks the configuration, key resolvers and stores against the application's beans, with the rules
 * and messages of the portable extension ({@link DeploymentPlans}). A problem fails the start.
 */
public final class LiteDeployment implements BatonDeployment {

    /** The parameter with the binary names of the bean classes that have Baton's annotations. */
    static final String BEAN_CLASSES = "beanClasses";

    private final DeploymentPlans plans;

    private LiteDeployment(DeploymentPlans plans) {
        this.plans = plans;
    }

    @Override
    public DeploymentPlans plans() {
        return plans;
    }

    @Override
    public CdiBeanLookup beans(BeanManager beanManager) {
        // CDI Lite has no bean archive visibility to work around: the container's resolution sees every bean.
        return new CdiBeanLookup(beanManager, List.of());
    }

    /**
     * Plans the {@code @Synchronized}, {@code @Exclusive} and {@code @Leader} methods of a bean class, read by reflection.
     *
     * @param rules where the plans go
     * @param beanClass the bean class
     * @param problems receives each definition error
     */
    static void plan(DeploymentPlans rules, Class<?> beanClass, Consumer<LockConfigurationException> problems) {
        List<DeploymentPlans.BeanMethod> methods = methods(beanClass);
        rules.planMethods(beanClass, beanClass.getAnnotation(Synchronized.class), methods, problems);
        rules.planSchedules(beanClass, beanClass.isAnnotationPresent(Exclusive.class), methods, problems);
        rules.planLeaders(beanClass, beanClass.getAnnotation(Leader.class), methods, problems);
    }

    /** The class's methods and those it inherits, without overridden ones: what a container's type shows. */
    private static List<DeploymentPlans.BeanMethod> methods(Class<?> beanClass) {
        List<DeploymentPlans.BeanMethod> methods = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (method.isSynthetic() && !method.isBridge()) {
                    continue; // lambdas and accessors
                }
                String signature = method.getName() + Arrays.toString(method.getParameterTypes());
                if (java.lang.reflect.Modifier.isPrivate(method.getModifiers()) || seen.add(signature)) {
                    methods.add(DeploymentPlans.BeanMethod.of(method));
                }
            }
        }
        return methods;
    }

    /** @return the loader of the application's classes */
    static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : LiteDeployment.class.getClassLoader();
    }

    /** Creates the deployment when the application starts: plans, then the checks that need beans. */
    public static final class Creator implements SyntheticBeanCreator<LiteDeployment> {

        @Override
        public LiteDeployment create(Instance<Object> lookup, Parameters params) {
            DeploymentPlans plans = new DeploymentPlans();
            List<String> problems = new ArrayList<>();
            Consumer<LockConfigurationException> report = problem -> problems.add(problem.getMessage());
            for (String name : params.get(BEAN_CLASSES, String[].class, new String[0])) {
                try {
                    plan(plans, Class.forName(name, false, classLoader()), report);
                } catch (ClassNotFoundException e) {
                    problems.add("The bean class " + name + " is not loadable: " + e);
                }
            }
            plans.validate(
                    new LiteDeployment(plans)
                            .beans(lookup.select(BeanManager.class).get()),
                    report);
            if (!problems.isEmpty()) {
                throw new LockConfigurationException(String.join("\n", problems));
            }
            return new LiteDeployment(plans);
        }
    }
}
