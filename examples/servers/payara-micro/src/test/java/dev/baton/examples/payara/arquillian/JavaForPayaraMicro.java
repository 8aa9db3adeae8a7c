package dev.baton.examples.payara.arquillian;

import dev.baton.tck.runtime.launch.Jdks;
import java.nio.file.Path;
import java.util.Set;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.event.DeployDeployment;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.core.spi.EventContext;

/**
 * Starts Payara Micro on a JDK new enough for it, and stops one whose deployment failed. arquillian-payara-micro-managed starts each deployment's
 * Payara Micro with the {@code java} of the test JVM's {@code java.home}, read while it deploys; Payara
 * Micro 7 needs JDK 21+, while the build (and its tests) may run on 17. So, only around each deployment,
 * {@code java.home} names the JDK that {@value #MINIMUM_JAVA} asks for: {@value #JAVA_HOME} if set, else
 * the test JVM's own if new enough, else the newest new-enough JDK installed beside it (e.g. in
 * {@code /usr/lib/jvm}). Without {@value #MINIMUM_JAVA} (Payara Micro 6) nothing changes.
 */
public class JavaForPayaraMicro {

    /** System property: the least Java feature version the Payara Micro under test runs on. */
    static final String MINIMUM_JAVA = "baton.payara.minimumJava";

    /** System property: the JDK to start Payara Micro on, instead of searching. */
    static final String JAVA_HOME = "baton.payara.javaHome";

    private static final Logger LOG = Logger.getLogger(JavaForPayaraMicro.class.getName());

    public void aroundDeploy(@Observes EventContext<DeployDeployment> deploy) throws DeploymentException {
        int minimum = Integer.getInteger(MINIMUM_JAVA, 0);
        Path current = Path.of(System.getProperty("java.home"));
        Path home = javaHome(minimum, current);
        if (!home.equals(current)) {
            LOG.info(() -> "Payara Micro needs Java " + minimum + "+: started on " + home);
        }
        Set<Long> running = children();
        System.setProperty("java.home", home.toString());
        try {
            deploy.proceed();
        } catch (Throwable e) { // also a DeploymentException passed on unchecked by Arquillian
            stopStartedSince(running);
            throw e;
        } finally {
            System.setProperty("java.home", current.toString());
        }
    }

    /**
     * The adapter leaves a Payara Micro that did not come up in time running, and starts the next test class's
     * beside it: a failed deployment stops the processes it started.
     */
    private static void stopStartedSince(Set<Long> running) {
        ProcessHandle.current()
                .children()
                .filter(child -> !running.contains(child.pid()))
                .forEach(child -> {
                    LOG.warning(() ->
                            "the deployment failed: stopping the Payara Micro it started (pid " + child.pid() + ")");
                    child.descendants().forEach(ProcessHandle::destroyForcibly);
                    child.destroyForcibly();
                });
    }

    private static Set<Long> children() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    private static Path javaHome(int minimum, Path current) throws DeploymentException {
        if (minimum == 0) {
            return current;
        }
        try {
            return Jdks.atLeast(minimum, System.getProperty(JAVA_HOME, ""), "-D" + JAVA_HOME);
        } catch (IllegalStateException e) {
            throw new DeploymentException("Payara Micro: " + e.getMessage());
        }
    }
}
