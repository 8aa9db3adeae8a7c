package dev.baton.examples.payara.arquillian;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.event.DeployDeployment;
import org.jboss.arquillian.core.spi.EventContext;
import org.jboss.arquillian.core.api.annotation.Observes;

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
        ProcessHandle.current().children().filter(child -> !running.contains(child.pid())).forEach(child -> {
            LOG.warning(() -> "the deployment failed: stopping the Payara Micro it started (pid " + child.pid() + ")");
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        });
    }

    private static Set<Long> children() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    private static Path javaHome(int minimum, Path current) throws DeploymentException {
        String configured = System.getProperty(JAVA_HOME, "").trim();
        if (!configured.isEmpty()) {
            Path home = Path.of(configured);
            int version = javaVersion(home).orElseThrow(() -> new DeploymentException(JAVA_HOME + "=" + home
                    + " is not a JDK (no release file)"));
            if (version < minimum) {
                throw new DeploymentException("Payara Micro needs Java " + minimum + "+, " + JAVA_HOME + "=" + home
                        + " is " + version);
            }
            return home;
        }
        if (Runtime.version().feature() >= minimum) {
            return current;
        }
        Path parent = current.toAbsolutePath().getParent();
        if (parent != null && Files.isDirectory(parent)) {
            try (Stream<Path> homes = Files.list(parent)) {
                Optional<Path> newest = homes.filter(home -> Files.isExecutable(home.resolve("bin/java")))
                        .filter(home -> javaVersion(home).orElse(0) >= minimum)
                        .max(Comparator.comparingInt((Path home) -> javaVersion(home).orElse(0)).thenComparing(Path::toString));
                if (newest.isPresent()) {
                    return newest.get();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new DeploymentException("Payara Micro needs Java " + minimum + "+; the tests run on " + Runtime.version()
                + " and none was found beside " + current + ": set -D" + JAVA_HOME + "=/path/to/jdk-" + minimum
                + "-or-newer");
    }

    /** The feature version in a JDK's {@code release} file. */
    private static Optional<Integer> javaVersion(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "").trim();
                    return Optional.of(Integer.parseInt(version.split("[.+-]")[0]));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
