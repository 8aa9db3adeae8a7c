package dev.baton.examples.helidon.arquillian;

import dev.baton.tck.runtime.launch.FreePorts;
import dev.baton.tck.runtime.launch.Jdks;
import dev.baton.tck.runtime.launch.ServerProcess;
import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.exporter.ExplodedExporter;

/**
 * A minimal Arquillian container for Helidon MP 4, which has no adapter on Maven Central.
 *
 * <p>Helidon MP is not an application server: an application is a class path and
 * {@code io.helidon.microprofile.cdi.Main}. So each deployment starts its own Helidon JVM: the
 * archive is exploded, its {@code WEB-INF/classes} (with {@code WEB-INF/beans.xml} copied to
 * {@code META-INF/beans.xml}) and {@code WEB-INF/lib/*.jar} go on the class path before Helidon's
 * own, the server listens on a free port of {@code host}, and the deployment counts as done when
 * it answers HTTP. A JVM that exits first is a failed deployment ({@link DeploymentException} with
 * the end of its output). Undeploying stops the JVM gracefully (SIGTERM, so CDI shuts down and
 * {@code @PreDestroy}/{@code BeforeShutdown} run), forcibly after 30 s.
 *
 * <p>Only client-side tests ({@code @Deployment(testable = false)} or {@code @RunAsClient}) are
 * supported; that is all the Baton runtime TCK uses.
 */
public class HelidonDeployableContainer implements DeployableContainer<HelidonContainerConfiguration> {

    private static final Logger LOG = Logger.getLogger(HelidonDeployableContainer.class.getName());
    private static final String MAIN = "io.helidon.microprofile.cdi.Main";
    private static final int MIN_JAVA = 21;

    private HelidonContainerConfiguration configuration;
    private Path java;
    private String helidonClasspath;
    private final Map<String, Running> running = new LinkedHashMap<>();

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final int LOG_TAIL_LINES = 60;

    private record Running(ServerProcess process, Path directory) {}

    @Override
    public Class<HelidonContainerConfiguration> getConfigurationClass() {
        return HelidonContainerConfiguration.class;
    }

    @Override
    public void setup(HelidonContainerConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public void start() throws LifecycleException {
        try {
            helidonClasspath = Files.readString(Path.of(configuration.getClasspathFile()), StandardCharsets.UTF_8)
                    .trim();
        } catch (IOException e) {
            throw new LifecycleException("helidon: cannot read classpathFile " + configuration.getClasspathFile(), e);
        }
        Path home = javaHome();
        java = Jdks.launcher(home);
        LOG.info(() -> "Helidon MP runs on " + home);
    }

    @Override
    public void stop() throws LifecycleException {
        for (String name : new ArrayList<>(running.keySet())) {
            stop(name);
        }
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new ProtocolDescription("Local");
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        String name = archive.getName();
        Path directory;
        try {
            directory = Files.createTempDirectory("baton-helidon-");
            archive.as(ExplodedExporter.class).exportExploded(directory.toFile(), "app");
        } catch (IOException | RuntimeException e) {
            throw new DeploymentException("helidon: cannot explode " + name, e);
        }
        Path app = directory.resolve("app");
        List<String> classpath = new ArrayList<>();
        try {
            classpath.addAll(applicationClasspath(app));
        } catch (IOException e) {
            throw new DeploymentException("helidon: cannot lay out " + name, e);
        }
        classpath.add(helidonClasspath);

        int port = FreePorts.pick();
        Path log = Path.of(configuration.getLogDirectory())
                .toAbsolutePath()
                .resolve("helidon-" + name.replaceAll("[^A-Za-z0-9._-]", "_") + ".log");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        for (String option : configuration.getJavaVmArguments().trim().split("\\s+")) {
            if (!option.isEmpty()) {
                command.add(option);
            }
        }
        command.add("-Dserver.host=" + configuration.getHost());
        command.add("-Dserver.port=" + port);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classpath));
        command.add(MAIN);

        ServerProcess process;
        try {
            process = ServerProcess.start(command, app, log);
        } catch (IOException e) {
            throw new DeploymentException("helidon: cannot start " + java + " for " + name, e);
        }
        running.put(name, new Running(process, directory));
        awaitHttp(name, process, port);

        HTTPContext context = new HTTPContext(configuration.getHost(), port);
        context.add(new Servlet("default", "/"));
        return new ProtocolMetaData().addContext(context);
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        stop(archive.getName());
    }

    private List<String> applicationClasspath(Path app) throws IOException {
        List<String> entries = new ArrayList<>();
        Path webInf = app.resolve("WEB-INF");
        if (!Files.isDirectory(webInf)) {
            entries.add(app.toString()); // a plain jar archive
            return entries;
        }
        Path classes = webInf.resolve("classes");
        Files.createDirectories(classes.resolve("META-INF"));
        Path beansXml = webInf.resolve("beans.xml");
        Path target = classes.resolve("META-INF/beans.xml");
        if (Files.exists(beansXml) && !Files.exists(target)) {
            Files.copy(beansXml, target, StandardCopyOption.REPLACE_EXISTING);
        }
        entries.add(classes.toString());
        Path lib = webInf.resolve("lib");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> jars = Files.list(lib)) {
                jars.filter(p -> p.getFileName().toString().endsWith(".jar"))
                        .sorted()
                        .forEach(p -> entries.add(p.toString()));
            }
        }
        return entries;
    }

    private void awaitHttp(String name, ServerProcess process, int port) throws DeploymentException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(configuration.getStartupTimeoutInSeconds());
        URI uri = URI.create("http://" + configuration.getHost() + ":" + port + "/");
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                running.remove(name);
                throw new DeploymentException("helidon: " + name + " did not start (exit code " + process.exitValue()
                        + "); end of " + process.logFile() + ":\n" + process.tail(LOG_TAIL_LINES));
            }
            try {
                HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
                connection.setConnectTimeout(1000);
                connection.setReadTimeout(5000);
                connection.getResponseCode();
                connection.disconnect();
                return;
            } catch (IOException notYet) {
                sleep(200);
            }
        }
        stop(name);
        throw new DeploymentException("helidon: " + name + " did not answer HTTP within "
                + configuration.getStartupTimeoutInSeconds() + " s; end of " + process.logFile() + ":\n"
                + process.tail(LOG_TAIL_LINES));
    }

    private void stop(String name) {
        Running app = running.remove(name);
        if (app == null) {
            return;
        }
        if (!app.process().stop(STOP_TIMEOUT) && !Thread.currentThread().isInterrupted()) {
            // Shutdown hooks did not finish: the application did not stop normally (its @PreDestroy may not have run).
            LOG.warning(() -> "helidon: " + name + " did not stop within " + STOP_TIMEOUT.toSeconds()
                    + " s of SIGTERM, killed; see " + app.process().logFile());
        }
        deleteRecursively(app.directory());
    }

    private Path javaHome() throws LifecycleException {
        try {
            return Jdks.atLeast(MIN_JAVA, configuration.getJavaHome(), "-Dhelidon.javaHome");
        } catch (IllegalStateException e) {
            throw new LifecycleException("helidon: Helidon MP 4: " + e.getMessage());
        }
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: best effort
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
