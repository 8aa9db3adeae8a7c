package dev.baton.tck.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder on 127.0.0.1 in front of a backend's server, for a store's fault tests: it plays a server that
 * goes away ({@link #stop()}: connections cut, new ones refused) and comes back on the same port ({@link #start()}),
 * one that stops answering without closing anything ({@link #blackHole()}: a partition, a paused process), and one
 * that acts on each request without the answer ever reaching the client ({@link #swallowAnswers()}). Point the store
 * at {@link #address()} instead of the server.
 */
public final class TcpProxy implements AutoCloseable {

    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;
    private volatile boolean swallowing;
    private volatile boolean swallowingAnswers;
    private int port;

    /** @param targetPort the server's port on 127.0.0.1 */
    public TcpProxy(int targetPort) {
        this.targetPort = targetPort;
    }

    /** @return the proxy's port: 0 until the first {@link #start()} */
    public int port() {
        return port;
    }

    /** @return {@code 127.0.0.1:<port>}: the server's address through the proxy */
    public String address() {
        return "127.0.0.1:" + port;
    }

    /** Accepts connections, on the same port as before once it had one. */
    public void start() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        port = socket.getLocalPort();
        listener = socket;
        daemon("baton-proxy-accept-" + port, () -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    open.add(client);
                    open.add(server);
                    if (listener != socket) {
                        client.close(); // stopped meanwhile
                        server.close();
                        continue;
                    }
                    daemon("baton-proxy-up", () -> copy(client, server, false));
                    daemon("baton-proxy-down", () -> copy(server, client, true));
                } catch (IOException e) {
                    // closed, or the server refused: the client sees its connection closed
                }
            }
        });
    }

    /** Cuts every connection and refuses new ones. */
    public void stop() {
        ServerSocket socket = listener;
        listener = null;
        closeQuietly(socket);
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    /** From now on swallows everything in both directions, closing nothing: the server seems hung. */
    public void blackHole() {
        swallowing = true;
    }

    /**
     * From now on passes the client's requests to the server but swallows the server's answers, closing nothing:
     * the server acts on each request, the client learns nothing of it.
     */
    public void swallowAnswers() {
        swallowingAnswers = true;
    }

    /** Ends a black hole: the connections that lost data in it are cut, new ones are served. */
    public void heal() {
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
        swallowing = false;
        swallowingAnswers = false;
    }

    private void copy(Socket from, Socket to, boolean answers) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (!swallowing && !(answers && swallowingAnswers)) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // cut
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            if (closeable != null) {
                closeable.close();
            }
        } catch (Exception e) {
            // best effort
        }
    }

    @Override
    public void close() {
        stop();
    }
}
