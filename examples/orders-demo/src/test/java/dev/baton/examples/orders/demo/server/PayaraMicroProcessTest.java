package dev.baton.examples.orders.demo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.tck.runtime.launch.FreePorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What needs no server: the free port, and a start that fails loudly with the process's output. */
class PayaraMicroProcessTest {

    @TempDir
    Path work;

    @Test
    void aPickedPortCanBeBoundOnLoopback() throws IOException {
        int port = FreePorts.pick();

        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void aProcessThatExitsBeforeItIsReadyFailsTheStartWithItsOutput() {
        PayaraMicroProcess.Builder missingJar = PayaraMicroProcess.builder(
                        work.resolve("no-such-payara-micro.jar"), work.resolve("orders.war"))
                .name("exits-at-once")
                .startTimeout(Duration.ofSeconds(30));

        assertThatThrownBy(missingJar::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Payara Micro exits-at-once")
                .hasMessageContaining("exited with code")
                .hasMessageContaining(work.resolve("exits-at-once.log").toString())
                .hasMessageContaining("no-such-payara-micro.jar"); // java's own complaint, from the log
    }
}
