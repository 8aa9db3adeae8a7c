package dev.baton.faults.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy against a loopback echo server: forward, black hole (held, then delivered), slow. */
class FaultProxyTest {

    private ServerSocket echo;
    private FaultProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket();
        echo.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread c = new Thread(() -> {
                        try (s;
                                InputStream in = s.getInputStream();
                                OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException ignored) {
                            // closed
                        }
                    });
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        proxy = new FaultProxy(echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private static int roundTrip(Socket s, int value) throws IOException {
        s.getOutputStream().write(value);
        return new DataInputStream(s.getInputStream()).read();
    }

    private static boolean readTimesOut(Socket s) throws IOException {
        try {
            s.getInputStream().read();
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        }
    }

    @Test
    void forwardsHoldsAndDelays() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setSoTimeout(500);
            assertThat(roundTrip(s, 7)).isEqualTo(7);

            proxy.blackHole();
            s.getOutputStream().write(8);
            assertThat(readTimesOut(s))
                    .as("nothing comes back through a black hole")
                    .isTrue();
            proxy.forward();
            assertThat(s.getInputStream().read())
                    .as("held bytes flow once healed")
                    .isEqualTo(8);

            proxy.slow(150);
            s.setSoTimeout(5_000);
            long start = System.nanoTime();
            assertThat(roundTrip(s, 9)).isEqualTo(9);
            assertThat((System.nanoTime() - start) / 1_000_000)
                    .as("two delayed chunks")
                    .isGreaterThanOrEqualTo(290);
        }
    }

    @Test
    void aDownTargetClosesNewConnections() throws Exception {
        // A socket bound but not listening holds the port: connecting to it is refused, and no other
        // socket (another process's, or the proxy's own outgoing one in a self-connect) can take it.
        // Closing the echo server instead is racy: a ServerSocket closed while its thread is blocked in
        // accept() can still hand out one connection that arrives before that thread wakes, and that
        // echo connection then stays open (seen in CI as a read time-out).
        try (Socket reserved = new Socket()) {
            reserved.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (FaultProxy down = new FaultProxy(reserved.getLocalPort());
                    Socket s = new Socket(InetAddress.getLoopbackAddress(), down.port())) {
                s.setSoTimeout(5_000);
                assertThat(s.getInputStream().read())
                        .as("the worker's connection is closed when the target refuses")
                        .isEqualTo(-1);
            }
        }
    }

    @Test
    void aCutLinkHoldsItsBytesWhileTheOthersFlow() throws Exception {
        try (Socket a = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
                Socket b = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            a.setSoTimeout(500);
            b.setSoTimeout(5_000);
            assertThat(roundTrip(a, 1)).isEqualTo(1);
            java.util.Set<Integer> before = proxy.upstreamPorts();
            assertThat(roundTrip(b, 2)).isEqualTo(2);
            java.util.Set<Integer> both = proxy.upstreamPorts();
            assertThat(both).hasSize(2).containsAll(before);
            int linkOfA = before.iterator().next();

            assertThat(proxy.cut(linkOfA)).isTrue();
            assertThat(proxy.cut(1)).as("a port that is no link of this proxy").isFalse();
            a.getOutputStream().write(3);
            assertThat(readTimesOut(a)).as("nothing comes back on the cut link").isTrue();
            assertThat(roundTrip(b, 4)).as("the other link flows").isEqualTo(4);

            proxy.uncut();
            assertThat(a.getInputStream().read())
                    .as("held bytes flow once healed")
                    .isEqualTo(3);
        }
    }
}
