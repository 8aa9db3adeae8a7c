package dev.baton.examples.helidon.arquillian;

import org.jboss.arquillian.container.spi.ConfigurationException;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;

/**
 * Configuration of the Helidon MP container ({@code arquillian.xml}, qualifier {@code helidon}).
 *
 * <ul>
 * <li>{@code classpathFile}: a file holding Helidon's class path (what
 * {@code dependency:build-classpath} writes); required.</li>
 * <li>{@code javaHome}: the JDK 21+ that runs Helidon 4; when empty, the JDK running the tests if it
 * is 21 or newer, else the newest JDK 21+ installed beside it.</li>
 * <li>{@code host}: the address Helidon binds to (default {@code 127.0.0.1}).</li>
 * <li>{@code javaVmArguments}: extra JVM options, blank-separated.</li>
 * <li>{@code startupTimeoutInSeconds}: how long a deployment may take to answer HTTP (default 120).</li>
 * <li>{@code logDirectory}: where each deployment's output goes (default the working directory).</li>
 * </ul>
 */
public class HelidonContainerConfiguration implements ContainerConfiguration {

    private String classpathFile;
    private String javaHome = "";
    private String host = "127.0.0.1";
    private String javaVmArguments = "-Xmx512m";
    private int startupTimeoutInSeconds = 120;
    private String logDirectory = ".";

    @Override
    public void validate() throws ConfigurationException {
        if (classpathFile == null || classpathFile.isBlank()) {
            throw new ConfigurationException(
                    "helidon: 'classpathFile' is required (the output of dependency:build-classpath)");
        }
        if (startupTimeoutInSeconds <= 0) {
            throw new ConfigurationException(
                    "helidon: 'startupTimeoutInSeconds' must be positive, not " + startupTimeoutInSeconds);
        }
    }

    public String getClasspathFile() {
        return classpathFile;
    }

    public void setClasspathFile(String classpathFile) {
        this.classpathFile = classpathFile;
    }

    public String getJavaHome() {
        return javaHome;
    }

    public void setJavaHome(String javaHome) {
        this.javaHome = javaHome;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public String getJavaVmArguments() {
        return javaVmArguments;
    }

    public void setJavaVmArguments(String javaVmArguments) {
        this.javaVmArguments = javaVmArguments;
    }

    public int getStartupTimeoutInSeconds() {
        return startupTimeoutInSeconds;
    }

    public void setStartupTimeoutInSeconds(int startupTimeoutInSeconds) {
        this.startupTimeoutInSeconds = startupTimeoutInSeconds;
    }

    public String getLogDirectory() {
        return logDirectory;
    }

    public void setLogDirectory(String logDirectory) {
        this.logDirectory = logDirectory;
    }
}
