package dev.baton.examples.orders.demo.server;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One WildFly standalone server of an unpacked distribution, with a server directory of its own (its
 * {@code configuration} copied from the distribution's {@code standalone}, its {@code deployments}
 * holding one WAR), every socket on 127.0.0.1, and a port offset that leaves several side by side.
 * Started by the distribution's {@code bin/standalone.sh} on the test JVM's JDK; ready when the
 * deployment scanner marks the WAR deployed, failed when it marks it failed or the server exits.
 */
public final class WildFlyProcess implements AutoCloseable {

    /** The sockets of {@code standalone.xml}, before the offset: ajp, http, https, management, transactions. */
    private static final int[] PORTS = {8009, 8080, 8443, 9990, 9993, 4712, 4713};

    private static final int LOG_TAIL_LINES = 60;

    private final String name;
    private final Process process;
    private final int httpPort;
    private final String contextRoot;
    private final Path log;

    private WildFlyProcess(String name, Process process, int httpPort, String contextRoot, Path log) {
        this.name = name;
        this.process = process;
        this.httpPort = httpPort;
        this.contextRoot = contextRoot;
        this.log = log;
    }

    /**
     * Starts a server and waits until its WAR is deployed.
     *
     * @param home the unpacked distribution ({@code JBOSS_HOME})
     * @param name the server's name, its directory under {@code baseDirectory}'s parent
     * @param war the application; its file name less {@code .war} is the context root
     * @param baseDirectory the server's own directory (created; emptied first)
     * @param systemProperties system properties of the server (MicroProfile Config reads them)
     * @param startTimeout how long the boot and the deployment may take
     * @return the running server
     */
    public static WildFlyProcess start(
            Path home,
            String name,
            Path war,
            Path baseDirectory,
            Map<String, String> systemProperties,
            Duration startTimeout)
            throws IOException, InterruptedException {
        Path script = home.resolve("bin/standalone.sh");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("no WildFly distribution at " + home + " (" + script + " is missing)");
        }
        LocalServerProcesses.deleteRecursively(baseDirectory);
        Path deployments = Files.createDirectories(baseDirectory.resolve("deployments"));
        LocalServerProcesses.copyRecursively(
                home.resolve("standalone/configuration"), baseDirectory.resolve("configuration"));
        Path deployed = Files.copy(war, deployments.resolve(war.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        String warName = war.getFileName().toString();
        String contextRoot = warName.substring(0, warName.length() - ".war".length());

        int offset = freeOffset();
        List<String> command = new ArrayList<>(List.of(
                script.toString(),
                "-c",
                "standalone.xml",
                "-Djboss.server.base.dir=" + baseDirectory,
                "-Djboss.socket.binding.port-offset=" + offset,
                "-b",
                "127.0.0.1",
                "-bmanagement",
                "127.0.0.1",
                "-Djava.net.preferIPv4Stack=true"));
        systemProperties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        Path log = baseDirectory.resolveSibling(name + ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JBOSS_HOME", home.toString());
        WildFlyProcess server = new WildFlyProcess(name, builder.start(), PORTS[1] + offset, contextRoot, log);
        try {
            server.awaitDeployed(deployed, startTimeout);
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** @return {@code http://127.0.0.1:<port>/<context root>/} */
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + httpPort + "/" + contextRoot + "/");
    }

    private void awaitDeployed(Path war, Duration timeout) throws IOException, InterruptedException {
        Path done = war.resolveSibling(war.getFileName() + ".deployed");
        Path failed = war.resolveSibling(war.getFileName() + ".failed");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(done)) {
            if (Files.exists(failed)) {
                throw new IllegalStateException("WildFly " + name + " failed to deploy " + war.getFileName() + ": "
                        + Files.readString(failed, StandardCharsets.UTF_8) + "\n" + logTail());
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("WildFly " + name + " exited (" + process.exitValue() + ") before "
                        + war.getFileName() + " was deployed:\n" + logTail());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("WildFly " + name + " did not deploy " + war.getFileName() + " within "
                        + timeout + ":\n" + logTail());
            }
            Thread.sleep(200);
        }
    }

    /** The last lines of the server's output. */
    public String logTail() {
        return LocalServerProcesses.tail(log, LOG_TAIL_LINES);
    }

    /** Stops the server: the shell script's JVM first (a normal shutdown), then the script; forced after 60 s. */
    @Override
    public void close() {
        LocalServerProcesses.stop(process);
    }

    /**
     * Kills the server's JVM at once (SIGKILL, as {@link Process#destroyForcibly()}), then the script that
     * started it: no shutdown, no lock released, as in a crash. Returns once both have exited.
     *
     * @throws IllegalStateException if one has not exited 30 s after the signal
     */
    public void kill() {
        LocalServerProcesses.kill(process, "WildFly " + name);
    }

    @Override
    public String toString() {
        return "WildFly " + name + " on port " + httpPort;
    }

    /** An offset at which every socket of {@code standalone.xml} is free on 127.0.0.1 now. */
    private static int freeOffset() {
        for (int offset = 10_000; offset < 40_000; offset += 137) {
            boolean free = true;
            for (int port : PORTS) {
                free &= LocalServerProcesses.isFree(port + offset);
            }
            if (free) {
                return offset;
            }
        }
        throw new IllegalStateException("no port offset with all of WildFly's ports free on 127.0.0.1");
    }
}
