package dev.baton.jpa.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on 127.0.0.1 that a test can cut and restore, to play a database that goes down and
 * comes back on the same address, or turn into a black hole, to play a database (or a network) that
 * stops answering without closing anything. Loopback only.
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;
    private volatile boolean blackHole;
    private volatile byte[] cutAfterToServer;
    private volatile boolean cutToServer;
    private final AtomicInteger roundTrips = new AtomicInteger();
    private int port;

    public TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /**
     * A proxy for the host and port of a JDBC URL.
     *
     * @param jdbcUrl e.g. {@code jdbc:postgresql://localhost:5432/db}
     * @return the proxy, not started
     */
    public static TcpProxy forJdbcUrl(String jdbcUrl) {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return new TcpProxy(uri.getHost(), uri.getPort());
    }

    /**
     * The URL with host and port replaced by the proxy's.
     *
     * @param jdbcUrl the real URL
     * @return the URL through the proxy
     */
    public String rewrite(String jdbcUrl) {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return jdbcUrl.replace("//" + uri.getHost() + ":" + uri.getPort(), "//127.0.0.1:" + port);
    }

    /** Accepts connections (on the same port as before, once it had one). */
    public void start() throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        port = s.getLocalPort();
        server = s;
        Thread acceptor = new Thread(() -> accept(s), "tcp-proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Refuses new connections and cuts every open one. */
    public synchronized void stop() {
        ServerSocket s = server;
        server = null;
        closeQuietly(s);
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    /**
     * Stops forwarding, in both directions, without closing anything: what is sent is swallowed, on
     * open connections and on new ones (which are accepted as before). A client waits for an answer
     * that never comes, as when the database hangs or the network drops packets.
     */
    public void blackHole() {
        blackHole = true;
    }

    /**
     * Forwards the first chunk a client sends that contains {@code marker} (e.g. a statement's text), then
     * swallows everything clients send; answers still flow. A client cut off right after that statement:
     * the server runs it and then waits inside the client's transaction for a COMMIT that never comes.
     * {@link #heal()} ends it.
     *
     * @param marker ASCII text of the last message that gets through
     */
    public void cutToServerAfter(String marker) {
        cutAfterToServer = marker.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * Ends a {@link #blackHole()}: cuts the connections that lost data in it (their protocol state is
     * gone) and forwards again, for new connections.
     */
    public synchronized void heal() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
        blackHole = false;
        cutAfterToServer = null;
        cutToServer = false;
    }

    public int port() {
        return port;
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket client = s.accept();
                Socket upstream = new Socket(targetHost, targetPort);
                synchronized (this) {
                    if (server != s) { // stopped meanwhile: this connection is cut too
                        closeQuietly(client);
                        closeQuietly(upstream);
                        continue;
                    }
                    sockets.add(client);
                    sockets.add(upstream);
                }
                AtomicBoolean clientSpoke = new AtomicBoolean();
                pump(client, upstream, true, clientSpoke);
                pump(upstream, client, false, clientSpoke);
            } catch (IOException e) {
                // closed, or the target refused: the client sees its socket closed
            }
        }
    }

    /**
     * The round trips the clients made since the last call: on each connection, every message of the client
     * that follows an answer of the server (or opens the exchange) makes the client wait once more. Messages
     * the client sends before the answer comes (pipelined) do not count.
     *
     * @return the round trips, and counting starts anew
     */
    public int takeRoundTrips() {
        return roundTrips.getAndSet(0);
    }

    private void pump(Socket from, Socket to, boolean toServer, AtomicBoolean clientSpoke) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            if (blackHole) {
                                continue; // swallowed
                            }
                            if (toServer && cutToServer) {
                                continue; // swallowed: the client is cut off
                            }
                            if (toServer && clientSpoke.compareAndSet(false, true)) {
                                roundTrips.incrementAndGet();
                            } else if (!toServer) {
                                clientSpoke.set(false); // before the client can see the answer and speak again
                            }
                            out.write(buffer, 0, n);
                            if (toServer) {
                                cutAfter(buffer, n);
                            }
                            out.flush();
                        }
                    } catch (IOException e) {
                        // cut
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Waits until {@link #cutToServerAfter} has cut its client off.
     *
     * @param atMost how long to wait
     * @throws AssertionError if it did not in time
     */
    public void awaitCut(java.time.Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (!cutToServer) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no client sent the marked message within " + atMost.toMillis() + " ms");
            }
            Thread.sleep(5);
        }
    }

    private void cutAfter(byte[] chunk, int length) {
        byte[] marker = cutAfterToServer;
        if (marker != null && contains(chunk, length, marker)) {
            cutToServer = true;
        }
    }

    private static boolean contains(byte[] chunk, int length, byte[] marker) {
        outer:
        for (int i = 0; i + marker.length <= length; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (chunk[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
