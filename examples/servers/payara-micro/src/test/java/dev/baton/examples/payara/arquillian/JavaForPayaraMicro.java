package dev.baton.examples.payara.arquillian;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.event.DeployDeployment;
import org.jboss.arquillian.core.spi.EventContext;
import org.jboss.arquillian.core.api.annotation.Observes;

/**
 * Starts Payara Micro on a JDK new enough for it. arquillian-payara-micro-managed starts each deployment's
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
        if (home.equals(current)) {
            deploy.proceed();
            return;
        }
        LOG.info(() -> "Payara Micro needs Java " + minimum + "+: started on " + home);
        System.setProperty("java.home", home.toString());
        try {
            deploy.proceed();
        } finally {
            System.setProperty("java.home", current.toString());
        }
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
