package dev.baton.examples.orders.demo.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** The listening sockets read from /proc are this JVM's own, with the addresses they were bound to. */
class ListeningSocketsTest {

    @Test
    void aSocketOnEveryInterfaceIsReportedAndOneOnLoopbackIsNot() throws Exception {
        assertThat(ListeningSockets.supported())
                .as("this check needs Linux's /proc (the CI machine has it)")
                .isTrue();
        try (ServerSocket loopback = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServerSocket everywhere = new ServerSocket(0);
                Socket connected = new Socket(InetAddress.getLoopbackAddress(), loopback.getLocalPort())) {
            assertThat(ListeningSockets.of(ProcessHandle.current()))
                    .extracting(InetSocketAddress::getPort)
                    .contains(loopback.getLocalPort(), everywhere.getLocalPort())
                    .doesNotContain(connected.getLocalPort()); // a connection is not a listener

            assertThat(ListeningSockets.notOnLoopback(ProcessHandle.current()))
                    .extracting(InetSocketAddress::getPort)
                    .contains(everywhere.getLocalPort())
                    .doesNotContain(loopback.getLocalPort());
        }
    }

    @Test
    void addressesAreDecodedWordByWordInHostOrder() throws Exception {
        assertThat(ListeningSockets.address("0100007F:1F90"))
                .isEqualTo(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080));
        assertThat(ListeningSockets.address("00000000:1AF4").getAddress().isAnyLocalAddress())
                .isTrue();
        assertThat(ListeningSockets.address("00000000000000000000000001000000:0050"))
                .isEqualTo(new InetSocketAddress(InetAddress.getByName("::1"), 80));
        // ::ffff:127.0.0.1, how Java's IPv6 sockets report a bind to 127.0.0.1
        assertThat(ListeningSockets.address("0000000000000000FFFF00000100007F:1AF4")
                        .getAddress()
                        .isLoopbackAddress())
                .isTrue();
    }
}
