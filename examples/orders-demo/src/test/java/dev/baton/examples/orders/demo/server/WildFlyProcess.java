package dev.baton.examples.orders.demo.server;

import java.io.IOException;
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
public final class WildFlyProcess extends LocalServer {

    /** The sockets of {@code standalone.xml}, before the offset: ajp, http, https, management, transactions. */
    private static final int[] PORTS = {8009, 8080, 8443, 9990, 9993, 4712, 4713};

    private WildFlyProcess(String name, Process process, int httpPort, String contextRoot, Path log) {
        super("WildFly", name, process, httpPort, contextRoot, log);
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
        // the deployment scanner's markers beside the WAR
        Path done = deployed.resolveSibling(warName + ".deployed");
        Path failed = deployed.resolveSibling(warName + ".failed");
        server.awaitUp(warName, startTimeout, () -> {
            if (Files.exists(failed)) {
                throw new IllegalStateException(server + " failed to deploy " + warName + ": "
                        + Files.readString(failed, StandardCharsets.UTF_8) + "\n" + server.logTail());
            }
            return Files.exists(done);
        });
        return server;
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
