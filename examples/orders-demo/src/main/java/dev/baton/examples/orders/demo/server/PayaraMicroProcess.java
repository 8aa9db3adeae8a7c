package dev.baton.examples.orders.demo.server;

import dev.baton.tck.runtime.launch.FreePorts;
import dev.baton.tck.runtime.launch.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * One Payara Micro process running one WAR, started as
 * {@code java [jvm args] [-Dkey=value...] -jar payara-micro.jar --port <p> --contextroot <root> [loopback options] --deploy <war>}
 * with the {@code java} of the running JVM, its output in a log file (a {@link ServerProcess}).
 *
 * <p>{@link Builder#start()} returns once the application answers HTTP, or fails with the log's last
 * lines. {@link #close()} stops the process (gracefully first).
 *
 * <p>Everything it listens on is bound to 127.0.0.1: the HTTP listener through a pre-boot command, the
 * data grid (Hazelcast, which {@code --nocluster} still starts on every interface) through
 * {@code --interfaces 127.0.0.1}, a TCP/IP member list on 127.0.0.1 and
 * {@code -Dhazelcast.socket.bind.any=false}. Each process gets a cluster name of its own, so two of them
 * on one machine never form one grid (their EJB timers stay their own).
 *
 * <p>The JVM starts with {@link #FAST_START} (before the {@link Builder#jvmArg(String) JVM options} given, which
 * may override it): a Payara Micro boot is mostly run once code, which C1 alone compiles several times sooner
 * than both tiers, on a machine with few cores.
 *
 * <pre>{@code
 * try (PayaraMicroProcess server = PayaraMicroProcess.builder(microJar, war)
 *         .contextRoot("orders")
 *         .systemProperty("baton.store", "jpa")
 *         .start()) {
 *     URI api = server.baseUri().resolve("api/orders/42");
 * }
 * }</pre>
 */
public final class PayaraMicroProcess implements AutoCloseable {

    /** The only address the servers started here listen on, and the one clients must use. */
    public static final String LOOPBACK = "127.0.0.1";

    /**
     * The JVM options every process starts with: C1 only ({@code -XX:TieredStopAtLevel=1}) and the serial
     * collector, which start Payara Micro two to three times as fast as the defaults on two busy cores (the tests
     * and the demo are short: C2's peak code is never needed).
     */
    public static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private static final int LOG_TAIL_LINES = 40;
    /** Hazelcast's first port; a second process on the machine takes the next one. */
    private static final int DATA_GRID_PORT = 6900;

    private static final String DEPLOYMENT_FAILED = "Exception while loading the app";
    private static final Pattern BOOTED = Pattern.compile("Payara Micro .+ ready in .+\\(ms\\)");
    private static final Duration POLL = Duration.ofMillis(250);

    private final String name;
    private final int port;
    private final String contextRoot;
    private final Path logFile;
    private final ServerProcess process;
    private final Duration stopTimeout;
    private final Thread stopOnExit;

    private PayaraMicroProcess(Builder builder, ServerProcess process) {
        this.name = builder.name;
        this.port = builder.port;
        this.contextRoot = builder.contextRoot;
        this.logFile = builder.logFile();
        this.process = process;
        this.stopTimeout = builder.stopTimeout;
        this.stopOnExit = new Thread(this::stop, name + "-stop-on-exit");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /**
     * Starts describing a Payara Micro process.
     *
     * @param microJar the {@code payara-micro.jar}
     * @param war the application to deploy
     * @return a builder
     */
    public static Builder builder(Path microJar, Path war) {
        return new Builder(microJar, war);
    }

    /** @return {@code http://127.0.0.1:<port>/<context root>/} */
    public URI baseUri() {
        return URI.create("http://" + LOOPBACK + ":" + port + "/" + (contextRoot.isEmpty() ? "" : contextRoot + "/"));
    }

    /** @return the HTTP port */
    public int port() {
        return port;
    }

    /** @return the file with the process's output */
    public Path logFile() {
        return logFile;
    }

    /** @return the operating system's process id */
    public long pid() {
        return process.pid();
    }

    /** @return the operating system's view of the process (its listening sockets, for example) */
    public ProcessHandle processHandle() {
        return process.toHandle();
    }

    /** @return whether the process is still running */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * The last lines of the log, without terminal colours.
     *
     * @param lines how many
     * @return the lines, joined by newlines
     */
    public String logTail(int lines) {
        return process.tail(lines);
    }

    /** Stops the process: a normal termination request first, then a forced one after the stop timeout. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    /**
     * Kills the process at once (SIGKILL, as {@link Process#destroyForcibly()}): no shutdown hook runs, no lock
     * is released, as in a crash. Returns once it has exited; {@link #close()} afterwards only cleans up.
     *
     * @throws IllegalStateException if it has not exited 30 s after the signal
     */
    public void kill() {
        ProcessHandle handle = process.toHandle();
        handle.destroyForcibly();
        try {
            handle.onExit().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing Payara Micro " + name, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "Payara Micro " + name + " (pid " + pid() + ") did not exit when killed", e);
        }
    }

    private void stop() {
        process.stop(stopTimeout);
    }

    private void awaitReady(Duration timeout) {
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        URI health = URI.create("http://" + LOOPBACK + ":" + port + "/health/ready");
        URI application = URI.create("http://" + LOOPBACK + ":" + port + "/" + contextRoot);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                if (!process.isAlive()) {
                    throw failure("exited with code " + process.exitValue() + " before it was ready");
                }
                // the log is read as it is written: wait a moment for the line of a failed deployment or a boot
                Optional<String> line = process.awaitLine(
                        each -> each.contains(DEPLOYMENT_FAILED)
                                || BOOTED.matcher(each).find(),
                        POLL);
                if (line.filter(each -> each.contains(DEPLOYMENT_FAILED)).isPresent()) {
                    throw failure("could not deploy the application");
                }
                // Payara Micro's readiness is 503 until every deployment has finished, and it logs
                // "... ready in" when it has booted (then readiness may stay down after a failed
                // deployment); from then on the application's context root must exist (it redirects)
                if (line.isPresent() || status(client, health) == 200) {
                    if (!contextRoot.isEmpty() && status(client, application) == 404) {
                        throw failure("started without the application at /" + contextRoot + ": its deployment failed");
                    }
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw failure("was not ready after " + timeout.toSeconds() + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("was interrupted while starting");
        }
    }

    private static int status(HttpClient client, URI uri) throws InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException notListeningYet) {
            return -1;
        }
    }

    private IllegalStateException failure(String what) {
        String tail = logTail(LOG_TAIL_LINES);
        String firstError = process.firstLine(line -> line.contains("[SEVERE]"), 2)
                .map(error -> "\nits first error:\n" + error)
                .orElse("");
        stop();
        return new IllegalStateException("Payara Micro " + name + " (port " + port + ") " + what + firstError
                + "\nthe last lines of " + logFile + ":\n" + tail);
    }

    /** What to start; {@link #start()} starts it. */
    public static final class Builder {

        private final Path microJar;
        private final Path war;
        private String name;
        private int port;
        private String contextRoot;
        private Path logDirectory;
        private Duration startTimeout = Duration.ofMinutes(3);
        private Duration stopTimeout = Duration.ofSeconds(30);
        private final List<String> jvmArgs = new ArrayList<>();
        private final Map<String, String> systemProperties = new LinkedHashMap<>();
        private final List<String> payaraArgs = new ArrayList<>();

        private Builder(Path microJar, Path war) {
            this.microJar = microJar.toAbsolutePath();
            this.war = war.toAbsolutePath();
            String file = war.getFileName().toString();
            this.contextRoot = file.endsWith(".war") ? file.substring(0, file.length() - 4) : file;
            this.logDirectory = microJar.toAbsolutePath().getParent();
        }

        /**
         * @param name names the log file ({@code <name>.log}) and the messages; default {@code payara-micro-<port>}
         * @return this
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * @param port the HTTP port; default a free one ({@link FreePorts#pick()})
         * @return this
         */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * @param contextRoot the application's context root without slashes; default the WAR's file name
         * @return this
         */
        public Builder contextRoot(String contextRoot) {
            this.contextRoot = contextRoot.replaceAll("^/+|/+$", "");
            return this;
        }

        /**
         * @param logDirectory where the log file goes; default the folder of {@code payara-micro.jar}
         * @return this
         */
        public Builder logDirectory(Path logDirectory) {
            this.logDirectory = logDirectory.toAbsolutePath();
            return this;
        }

        /**
         * @param key a system property of the server's JVM (as {@code -Dkey=value}), e.g. {@code baton.store}
         * @param value its value
         * @return this
         */
        public Builder systemProperty(String key, String value) {
            systemProperties.put(key, value);
            return this;
        }

        /**
         * @param arg a JVM option of the server, e.g. {@code -Xmx512m}
         * @return this
         */
        public Builder jvmArg(String arg) {
            jvmArgs.add(arg);
            return this;
        }

        /**
         * @param arg a Payara Micro option, e.g. {@code --addlibs}, {@code /path/driver.jar}
         * @return this
         */
        public Builder payaraArg(String arg) {
            payaraArgs.add(arg);
            return this;
        }

        /**
         * @param timeout how long the server may take until the application answers; default 3 minutes
         * @return this
         */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /**
         * @param timeout how long {@link PayaraMicroProcess#close()} waits before it kills; default 30 s
         * @return this
         */
        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = timeout;
            return this;
        }

        /**
         * Starts the process and waits until the application answers.
         *
         * @return the running server
         * @throws IllegalStateException if it exits, fails to deploy or is not ready in time (the
         *         message carries the log's last lines); the process is stopped then
         */
        public PayaraMicroProcess start() {
            if (port == 0) {
                port = FreePorts.pick();
            }
            if (name == null) {
                name = "payara-micro-" + port;
            }
            try {
                Files.createDirectories(logDirectory);
                Path preboot = logDirectory.resolve(name + "-preboot.asadmin");
                Files.writeString(
                        preboot,
                        "set configs.config.server-config.network-config.network-listeners"
                                + ".network-listener.http-listener.address=" + LOOPBACK + "\n");
                ServerProcess process = ServerProcess.start(command(preboot), null, logFile());
                PayaraMicroProcess server = new PayaraMicroProcess(this, process);
                server.awaitReady(startTimeout);
                return server;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start Payara Micro " + name + " from " + microJar, e);
            }
        }

        private List<String> command(Path preboot) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(FAST_START);
            command.addAll(jvmArgs);
            command.add("-Dhazelcast.socket.bind.any=false");
            systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.addAll(List.of(
                    "-jar",
                    microJar.toString(),
                    "--interfaces",
                    LOOPBACK,
                    "--clustermode",
                    "tcpip:" + LOOPBACK + ":" + DATA_GRID_PORT,
                    "--hzpublicaddress",
                    LOOPBACK,
                    "--clustername",
                    name,
                    "--disablephonehome",
                    "--port",
                    Integer.toString(port),
                    "--prebootcommandfile",
                    preboot.toString(),
                    "--contextroot",
                    contextRoot.isEmpty() ? "/" : contextRoot));
            command.addAll(payaraArgs);
            command.addAll(List.of("--deploy", war.toString()));
            return command;
        }

        private Path logFile() {
            return logDirectory.resolve(name + ".log");
        }
    }
}
