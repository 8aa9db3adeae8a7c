package dev.baton.examples.orders.demo.server;

import dev.baton.tck.runtime.launch.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Open Liberty server of an unpacked runtime ({@code wlp}), with a user directory of its own
 * ({@code WLP_USER_DIR}: the server's {@code server.xml} and {@code jvm.options}, its {@code apps} holding
 * one WAR, its logs and work area, and the global library), listening on 127.0.0.1 only, on an HTTP port of
 * its own and no HTTPS port. Started as {@code bin/server run <name>} on the test JVM's JDK: the script
 * {@code exec}s the server's JVM, so the process started here is the server, and {@link #kill()} is a
 * SIGKILL to it. Ready when the console says the WAR's application started; failed when it says the
 * application failed or the server exits first.
 */
public final class LibertyProcess extends LocalServer {

    /**
     * The features the orders example needs: its REST resources, CDI, MicroProfile Config and Health,
     * JPA on a data source of its {@code web.xml}, and non-persistent EJB {@code @Schedule} timers, which
     * Enterprise Beans Lite includes (persistent ones would need {@code enterpriseBeans-4.0} and a database
     * for the timers).
     */
    static final List<String> FEATURES = List.of(
            "cdi-4.0",
            "restfulWS-3.1",
            "mpConfig-3.1",
            "mpHealth-4.0",
            "persistence-3.1",
            "jdbc-4.3",
            "enterpriseBeansLite-4.0");

    /** CWWKZ0002E, CWWKZ0004E, ...: an application that could not start. */
    private static final Pattern FAILED = Pattern.compile("CWWKZ00\\d\\dE.*");

    private LibertyProcess(String name, Process process, int httpPort, String contextRoot, Path log) {
        super("Open Liberty", name, process, httpPort, contextRoot, log);
    }

    /**
     * Starts a server and waits until its WAR has started.
     *
     * @param wlp the unpacked runtime (its {@code bin/server})
     * @param name the server's name
     * @param war the application; its file name less {@code .war} is its name and context root
     * @param userDirectory the server's own user directory (created; emptied first); the console log goes
     *     beside it, to {@code <name>.log}
     * @param globalLibrary jars for {@code shared/config/lib/global}, the library every application sees:
     *     Liberty loads the JDBC driver of an application's data source definition only from a shared library
     * @param systemProperties system properties of the server (MicroProfile Config reads them)
     * @param startTimeout how long the boot and the deployment may take
     * @return the running server
     */
    public static LibertyProcess start(
            Path wlp,
            String name,
            Path war,
            Path userDirectory,
            List<Path> globalLibrary,
            Map<String, String> systemProperties,
            Duration startTimeout)
            throws IOException, InterruptedException {
        Path script = wlp.resolve("bin/server");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("no Open Liberty runtime at " + wlp + " (" + script + " is missing)");
        }
        LocalServerProcesses.deleteRecursively(userDirectory);
        Path server = Files.createDirectories(userDirectory.resolve("servers").resolve(name));
        Path apps = Files.createDirectories(server.resolve("apps"));
        Files.copy(war, apps.resolve(war.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        Path global = Files.createDirectories(userDirectory.resolve("shared/config/lib/global"));
        for (Path jar : globalLibrary) {
            Files.copy(jar, global.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        String warName = war.getFileName().toString();
        String application = warName.substring(0, warName.length() - ".war".length());
        int httpPort = FreePorts.pick();
        Files.writeString(server.resolve("server.xml"), serverXml(name, warName, application, httpPort));
        List<String> jvmOptions = new ArrayList<>(List.of(
                "-Djava.net.preferIPv4Stack=true",
                "-Djava.io.tmpdir=" + Files.createDirectories(userDirectory.resolve("tmp"))));
        systemProperties.forEach((key, value) -> jvmOptions.add("-D" + key + "=" + value));
        Files.write(server.resolve("jvm.options"), jvmOptions, StandardCharsets.UTF_8);

        Path log = userDirectory.resolveSibling(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(script.toString(), "run", name)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("WLP_USER_DIR", userDirectory.toString());
        builder.environment().remove("WLP_OUTPUT_DIR");
        builder.environment().remove("JVM_ARGS");
        LibertyProcess started = new LibertyProcess(name, builder.start(), httpPort, application, log);
        String up = "CWWKZ0001I: Application " + application + " started";
        started.awaitUp(application, startTimeout, () -> {
            String console = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
            Matcher failed = FAILED.matcher(console);
            if (failed.find()) {
                throw new IllegalStateException(
                        started + " could not start " + application + ": " + failed.group() + "\n" + started.logTail());
            }
            return console.contains(up);
        });
        return started;
    }

    private static String serverXml(String name, String warName, String application, int httpPort) {
        StringBuilder xml = new StringBuilder();
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<server description=\"orders example, ")
                .append(name)
                .append("\">\n  <featureManager>\n");
        FEATURES.forEach(feature -> xml.append("    <feature>").append(feature).append("</feature>\n"));
        return xml.append("  </featureManager>\n")
                .append("  <httpEndpoint id=\"defaultHttpEndpoint\" host=\"127.0.0.1\" httpPort=\"")
                .append(httpPort)
                .append("\" httpsPort=\"-1\"/>\n")
                // only the application below: no dropins directory watched, no configuration polled
                .append("  <applicationMonitor dropinsEnabled=\"false\" updateTrigger=\"disabled\"/>\n")
                .append("  <config updateTrigger=\"disabled\"/>\n")
                .append("  <webApplication id=\"")
                .append(application)
                .append("\" name=\"")
                .append(application)
                .append("\" location=\"")
                .append(warName)
                .append("\" contextRoot=\"/")
                .append(application)
                .append("\"/>\n</server>\n")
                .toString();
    }
}
