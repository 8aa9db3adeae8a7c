package dev.baton.tck.runtime.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher on a POSIX shell as the child process: a machine without {@code /bin/sh} fails, it does not skip. */
class ServerProcessTest {

    @TempDir
    Path directory;

    private ServerProcess shell(String script) throws Exception {
        return ServerProcess.start(List.of("/bin/sh", "-c", script), directory, directory.resolve("logs/server.log"));
    }

    @Test
    void theReadyLineIsSeenAndTheLogWrittenAsItComes() throws Exception {
        ServerProcess server =
                shell("trap 'echo stopping; exit 0' TERM; echo starting; printf '\\033[32mready\\033[0m in 5 ms\\n';"
                        + " while true; do sleep 0.1; done");
        try {
            assertThat(server.awaitLine(line -> line.startsWith("ready"), Duration.ofSeconds(20)))
                    .contains("ready in 5 ms");
            assertThat(server.isAlive()).isTrue();
            assertThat(Files.readString(server.logFile())).contains("starting");
            assertThat(server.firstLine(line -> line.equals("starting"), 1)).contains("starting\nready in 5 ms");
        } finally {
            assertThat(server.stop(Duration.ofSeconds(20)))
                    .as("stopped by SIGTERM")
                    .isTrue();
        }
        assertThat(server.tail(1)).isEqualTo("stopping");
        assertThat(server.exitValue()).isZero();
    }

    @Test
    void aProcessThatExitsEndsTheWait() throws Exception {
        ServerProcess server = shell("echo failing; exit 3");
        assertThat(server.awaitLine(line -> line.contains("ready"), Duration.ofSeconds(20)))
                .isEmpty();
        server.stop(Duration.ofSeconds(5));
        assertThat(server.exitValue()).isEqualTo(3);
        assertThat(server.tail(5)).isEqualTo("failing");
    }

    @Test
    void aLineThatDoesNotComeTimesOut() throws Exception {
        ServerProcess server = shell("echo starting; while true; do sleep 0.1; done");
        try {
            long start = System.nanoTime();
            assertThat(server.awaitLine(line -> line.contains("ready"), Duration.ofMillis(300)))
                    .isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        } finally {
            server.stop(Duration.ofSeconds(20));
        }
    }

    @Test
    void aProcessThatIgnoresSigtermIsKilled() throws Exception {
        ServerProcess server = shell("trap '' TERM; echo ready; while true; do sleep 0.1; done");
        assertThat(server.awaitLine("ready"::equals, Duration.ofSeconds(20))).isPresent();
        assertThat(server.stop(Duration.ofMillis(500))).as("stopped by SIGTERM").isFalse();
        assertThat(server.isAlive()).isFalse();
    }

    @Test
    void freePortsAreOnTheLoopbackInterface() throws Exception {
        int port = FreePorts.pick();
        assertThat(port).isBetween(1, 65535);
        try (java.net.ServerSocket socket =
                new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }
}
