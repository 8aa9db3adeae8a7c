package dev.baton.impl.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockConfigurationException;
import dev.baton.impl.cdi.BatonExtension;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.assertj.core.api.AbstractThrowableAssert;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/** Boots Weld SE by hand, for deployments that must fail. */
public final class Deployments {

    private Deployments() {}

    /**
     * Asserts that booting a container with these beans and this configuration fails the deployment
     * because of Baton: the container itself throws a CDI {@link DefinitionException} or
     * {@link DeploymentException} (Weld's own subclasses count), and a {@link LockConfigurationException}
     * is among its causes or suppressed exceptions (Weld adds each of several problems as a suppressed
     * exception). Only the container is booted — no bean is looked up, nothing is called — so a
     * failure that would only come at first use does not pass as a deployment failure.
     *
     * @param config {@code key=value} properties
     * @param beans the bean classes
     * @return the assertion on the container's failure, for checks of its messages
     * @throws AssertionError if the deployment succeeds, or fails otherwise than described
     */
    public static AbstractThrowableAssert<?, ? extends Throwable> assertDeploymentFails(
            String[] config, Class<?>... beans) {
        return assertDeploymentFails(config, weld(beans), names(beans));
    }

    /**
     * {@link #assertDeploymentFails(String[], Class...)} for a Weld set up otherwise (another extension).
     *
     * @param config {@code key=value} properties
     * @param weld the container to boot
     * @param deployment what it deploys, for messages
     * @return the assertion on the container's failure, for checks of its messages
     * @throws AssertionError if the deployment succeeds, or fails otherwise than described
     */
    public static AbstractThrowableAssert<?, ? extends Throwable> assertDeploymentFails(
            String[] config, Weld weld, String deployment) {
        TestConfig.install(config);
        try {
            return assertThat(bootFailure(weld, deployment));
        } finally {
            TestConfig.uninstall();
        }
    }

    private static Throwable bootFailure(Weld weld, String deployment) {
        Throwable failure;
        try (WeldContainer container = weld.initialize()) {
            failure = null;
        } catch (Throwable t) {
            failure = t;
        }
        if (failure == null) {
            throw new AssertionError("Expected the deployment of " + deployment
                    + " to fail with a LockConfigurationException, but the container started");
        }
        if (!(failure instanceof DefinitionException) && !(failure instanceof DeploymentException)) {
            throw new AssertionError(
                    "Expected the deployment of " + deployment + " to fail with a CDI DefinitionException or "
                            + "DeploymentException, but booting the container threw "
                            + failure.getClass().getName()
                            + ":\n" + stackTrace(failure),
                    failure);
        }
        if (lockConfigurationExceptions(failure).isEmpty()) {
            throw new AssertionError(
                    "Expected the deployment of " + deployment + " to fail because of a LockConfigurationException, "
                            + "but none is among the causes or suppressed exceptions of the container's failure:\n"
                            + stackTrace(failure),
                    failure);
        }
        return failure;
    }

    /**
     * @param failure a container's failure
     * @return every {@link LockConfigurationException} among its causes and suppressed exceptions, at any depth
     */
    public static List<LockConfigurationException> lockConfigurationExceptions(Throwable failure) {
        List<LockConfigurationException> found = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> next = new ArrayDeque<>();
        next.add(failure);
        while (!next.isEmpty()) {
            Throwable t = next.poll();
            if (!seen.add(t)) {
                continue;
            }
            if (t instanceof LockConfigurationException e) {
                found.add(e);
            }
            if (t.getCause() != null) {
                next.add(t.getCause());
            }
            next.addAll(List.of(t.getSuppressed()));
        }
        return found;
    }

    private static String names(Class<?>... beans) {
        List<String> names = new ArrayList<>();
        for (Class<?> bean : beans) {
            names.add(bean.getSimpleName());
        }
        return names.toString();
    }

    private static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    /**
     * @param beans the bean classes
     * @return a Weld SE with Baton and MicroProfile Config, no discovery
     */
    public static Weld weld(Class<?>... beans) {
        return new Weld()
                .disableDiscovery()
                .containerId(null)
                .addExtension(new BatonExtension())
                .addExtension(new ConfigExtension())
                .beanClasses(beans);
    }
}
