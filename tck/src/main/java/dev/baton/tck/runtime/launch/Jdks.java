package dev.baton.tck.runtime.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds a JDK of at least a given feature version: the one configured, else the running JVM's if new
 * enough, else the newest new-enough JDK installed beside it (for example in {@code /usr/lib/jvm}). A
 * server that needs Java 21 can so be started from a build that runs on 17, with no setting on a machine
 * that has both.
 */
public final class Jdks {

    private Jdks() {}

    /**
     * The JDK to start a process on.
     *
     * @param minimum the least feature version (e.g. 21)
     * @param configured a JDK home the user chose, or {@code null}/blank to search
     * @param setting how the user configures {@code configured} (named in the message when none is found)
     * @return the JDK's home directory
     * @throws IllegalStateException if {@code configured} is not a JDK or too old, or none is found; the message
     *         says which, with the versions seen and the setting to use
     */
    public static Path atLeast(int minimum, String configured, String setting) {
        if (configured != null && !configured.isBlank()) {
            Path home = Path.of(configured.trim());
            int version = version(home)
                    .orElseThrow(() ->
                            new IllegalStateException(setting + "=" + home + " is not a JDK (it has no release file)"));
            if (version < minimum) {
                throw new IllegalStateException(
                        "Java " + minimum + "+ is needed, " + setting + "=" + home + " is Java " + version);
            }
            return home;
        }
        return beside(minimum)
                .orElseThrow(() -> new IllegalStateException("Java " + minimum
                        + "+ is needed; this JVM is " + Runtime.version() + " and none was found beside "
                        + Path.of(System.getProperty("java.home")) + ": set " + setting + "=/path/to/jdk-" + minimum
                        + "-or-newer"));
    }

    /**
     * This JVM's JDK if new enough, else the newest new-enough one in the same parent directory.
     *
     * @param minimum the least feature version
     * @return the JDK's home directory, or empty if there is none
     */
    public static Optional<Path> beside(int minimum) {
        Path current = Path.of(System.getProperty("java.home"));
        if (Runtime.version().feature() >= minimum) {
            return Optional.of(current);
        }
        Path parent = current.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(parent)) {
            return homes.filter(home -> Files.isExecutable(home.resolve("bin").resolve("java")))
                    .filter(home -> version(home).orElse(0) >= minimum)
                    .max(Comparator.comparingInt((Path home) -> version(home).orElse(0))
                            .thenComparing(Path::toString));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the JDKs in " + parent, e);
        }
    }

    /**
     * The feature version in a JDK's {@code release} file ({@code JAVA_VERSION="21.0.5"} is 21,
     * {@code "1.8.0_402"} is 8).
     *
     * @param home a directory
     * @return the version, or empty if {@code home} has no readable {@code release} file
     */
    public static Optional<Integer> version(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length())
                            .replace("\"", "")
                            .trim();
                    String feature = version.split("[.+_-]")[0];
                    return Optional.of(Integer.parseInt("1".equals(feature) ? version.split("\\.")[1] : feature));
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * The {@code java} launcher of a JDK.
     *
     * @param home a JDK's home directory
     * @return {@code <home>/bin/java} ({@code java.exe} on Windows)
     */
    public static Path launcher(Path home) {
        boolean windows = System.getProperty("os.name", "")
                .toLowerCase(java.util.Locale.ROOT)
                .startsWith("windows");
        return home.resolve("bin").resolve(windows ? "java.exe" : "java");
    }
}
