package dev.baton.examples.orders.demo.server;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A server process of this machine that serves one WAR on 127.0.0.1: where it answers, its output, how it is
 * stopped and killed, and the wait for its WAR to be up. {@link WildFlyProcess} and {@link LibertyProcess} say how
 * each starts and how it tells that the WAR is up or has failed.
 */
public abstract class LocalServer implements AutoCloseable {

    /** What a server says of its WAR while it starts. */
    @FunctionalInterface
    interface Readiness {
        /**
         * @return true once the WAR is up
         * @throws IllegalStateException naming why it will not come up (the server says it failed)
         */
        boolean up() throws IOException;
    }

    private static final int LOG_TAIL_LINES = 80;

    private final String kind;
    private final String name;
    private final Process process;
    private final int httpPort;
    private final String contextRoot;
    private final Path log;

    LocalServer(String kind, String name, Process process, int httpPort, String contextRoot, Path log) {
        this.kind = kind;
        this.name = name;
        this.process = process;
        this.httpPort = httpPort;
        this.contextRoot = contextRoot;
        this.log = log;
    }

    /**
     * Waits until the WAR is up; stops the server when it does not come up.
     *
     * @param what the WAR, for messages
     */
    final void awaitUp(String what, Duration timeout, Readiness readiness) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!readiness.up()) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            this + " exited (" + process.exitValue() + ") before " + what + " was up:\n" + logTail());
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException(
                            this + " did not bring " + what + " up within " + timeout + ":\n" + logTail());
                }
                Thread.sleep(200);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** @return {@code http://127.0.0.1:<port>/<context root>/} */
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + httpPort + "/" + contextRoot + "/");
    }

    /** @return the process started (a start script, or the server's JVM that the script became) */
    public ProcessHandle processHandle() {
        return process.toHandle();
    }

    /** The last lines of the server's output. */
    public String logTail() {
        return LocalServerProcesses.tail(log, LOG_TAIL_LINES);
    }

    /** Stops the server normally (SIGTERM to the process started and what it started); forced after 60 s. */
    @Override
    public void close() {
        LocalServerProcesses.stop(process);
    }

    /**
     * Kills the server's JVM at once (SIGKILL), and the script that started it if any: no shutdown, no lock
     * released, as in a crash. Returns once they have exited.
     *
     * @throws IllegalStateException if one has not exited 30 s after the signal
     */
    public void kill() {
        LocalServerProcesses.kill(process, kind + " " + name);
    }

    @Override
    public String toString() {
        return kind + " " + name + " on port " + httpPort;
    }
}
