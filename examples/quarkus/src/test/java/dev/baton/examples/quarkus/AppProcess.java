package dev.baton.examples.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.runtime.launch.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged application ({@code target/quarkus-app/quarkus-run.jar}) run as a process of its own on a free
 * loopback port, its output in a log file under {@code target/}.
 */
final class AppProcess implements AutoCloseable {

    private static final Path TARGET = Path.of("target").toAbsolutePath();

    private final String name;
    private final Process process;
    private final URI base;
    private final Path log;

    private AppProcess(String name, Process process, URI base, Path log) {
        this.name = name;
        this.process = process;
        this.base = base;
        this.log = log;
    }

    /**
     * Starts the application; {@link #awaitUp} waits until it answers.
     *
     * @param name its name in the log file's name
     * @param database the database it uses
     * @param properties more system properties, {@code -Dkey=value}
     * @return the running process
     */
    static AppProcess start(String name, TestDatabase database, String... properties) throws IOException {
        int port = FreePorts.pick();
        Path log = Files.createTempFile(TARGET, "quarkus-run-" + name + "-", ".log");
        List<String> command = new ArrayList<>(List.of(
                java(),
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.datasource.jdbc.url=" + database.jdbcUrl(),
                "-Dquarkus.datasource.username=" + database.user()));
        command.addAll(List.of(properties));
        command.addAll(
                List.of("-jar", TARGET.resolve("quarkus-app/quarkus-run.jar").toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new AppProcess(name, process, URI.create("http://127.0.0.1:" + port + "/"), log);
    }

    /** @return where it answers, ending with {@code /} */
    URI base() {
        return base;
    }

    /**
     * @param path a path, without a leading {@code /}
     * @return its URI in this application
     */
    URI uri(String path) {
        return base.resolve(path);
    }

    /** @return its log file */
    Path log() {
        return log;
    }

    /** Waits (at most 90 s) until the application answers HTTP; fails if the process ends first. */
    AppProcess awaitUp() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            assertThat(process.isAlive())
                    .as("the application %s runs; log:%n%s", name, logText())
                    .isTrue();
            try {
                if (Http.get(uri("seats/probe")).statusCode() == 200) {
                    return this;
                }
            } catch (RuntimeException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the application " + name + " did not answer within 90 s; log:\n" + logText());
    }

    /**
     * Sends SIGTERM (Quarkus stops the application) and waits at most 60 s for the process to end.
     *
     * @return its exit code
     */
    int stop() throws InterruptedException {
        process.destroy();
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("%s stopped within 60 s of SIGTERM; log %s", name, log)
                .isTrue();
        return process.exitValue();
    }

    /** @return the log so far */
    String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Kills the process if it still runs (a test that failed before {@link #stop}). */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }
}
