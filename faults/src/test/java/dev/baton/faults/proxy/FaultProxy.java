package dev.baton.faults.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on 127.0.0.1 between one worker and the database, whose link the nemesis can degrade:
 * {@link Mode#FORWARD}, {@link Mode#BLACK_HOLE} (bytes are held, connections stay open, as in a network
 * partition that TCP rides out: they flow again when the mode changes back) and {@link Mode#SLOW} (every
 * chunk waits before it is passed on). Loopback only. When the database closes a connection (a
 * restart), the worker's side is closed too; when the database is down, new connections are closed at
 * once.
 */
public final class FaultProxy implements AutoCloseable {

    /** How the link behaves. */
    public enum Mode {
        /** Pass bytes on at once. */
        FORWARD,
        /** Hold every byte, keep every connection open. */
        BLACK_HOLE,
        /** Wait {@link #delayMillis()} before passing each chunk on. */
        SLOW
    }

    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** The links (by their upstream socket's local port) that hold their bytes whatever the mode. */
    private final Set<Integer> cut = ConcurrentHashMap.newKeySet();

    private final Object modeChange = new Object();
    private final ServerSocket server;
    private volatile Mode mode = Mode.FORWARD;
    private volatile long delayMillis;

    /**
     * Starts a proxy on a free loopback port.
     *
     * @param targetPort the database's port on 127.0.0.1
     * @throws IOException if no port could be bound
     */
    public FaultProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return the port workers connect to */
    public int port() {
        return server.getLocalPort();
    }

    /** Passes bytes on at once (heals a partition or a slow link). */
    public void forward() {
        setMode(Mode.FORWARD, 0);
    }

    /** Stops passing bytes on, without closing anything. */
    public void blackHole() {
        setMode(Mode.BLACK_HOLE, 0);
    }

    /**
     * Delays every chunk.
     *
     * @param millis the delay per chunk and direction
     */
    public void slow(long millis) {
        setMode(Mode.SLOW, millis);
    }

    /** @return the current mode */
    public Mode mode() {
        return mode;
    }

    /** @return the delay of {@link Mode#SLOW} */
    public long delayMillis() {
        return delayMillis;
    }

    /**
     * The local ports of the open upstream connections: the client ports the target sees (PostgreSQL
     * {@code pg_stat_activity.client_port}, MariaDB {@code PROCESSLIST.HOST}, Redis {@code CLIENT LIST}).
     *
     * @return the ports
     */
    public Set<Integer> upstreamPorts() {
        Set<Integer> ports = new java.util.TreeSet<>();
        for (Socket s : sockets) {
            if (s.getPort() == targetPort) {
                ports.add(s.getLocalPort());
            }
        }
        return ports;
    }

    /**
     * Stops passing bytes on one link only (the others keep the proxy's mode), without closing it.
     *
     * @param upstreamPort the link's upstream local port (see {@link #upstreamPorts()})
     * @return whether this proxy has that link
     */
    public boolean cut(int upstreamPort) {
        if (!upstreamPorts().contains(upstreamPort)) {
            return false;
        }
        synchronized (modeChange) {
            cut.add(upstreamPort);
        }
        return true;
    }

    /** Passes bytes on again on every link {@link #cut} stopped. */
    public void uncut() {
        synchronized (modeChange) {
            cut.clear();
            modeChange.notifyAll();
        }
    }

    private void setMode(Mode newMode, long millis) {
        synchronized (modeChange) {
            delayMillis = millis;
            mode = newMode;
            modeChange.notifyAll();
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                client.setTcpNoDelay(true);
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                if (upstream.getLocalPort() == targetPort) {
                    // TCP self-connect: with nothing listening on an ephemeral-range port, the kernel can pick
                    // that very port as the source and "connect" the socket to itself. The target is down.
                    closeQuietly(upstream);
                    throw new IOException("self-connect to " + targetPort + ": the target is down");
                }
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream, upstream.getLocalPort());
                pump(upstream, client, upstream.getLocalPort());
            } catch (IOException e) {
                closeQuietly(client); // the database is down: the worker sees its connection closed
            }
        }
    }

    private void pump(Socket from, Socket to, int link) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            awaitPassage(link);
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    } catch (IOException | InterruptedException e) {
                        // cut, or the proxy closed
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                        sockets.remove(from);
                        sockets.remove(to);
                    }
                },
                "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Blocks while the link is a black hole; sleeps the delay when it is slow. */
    private void awaitPassage(int link) throws InterruptedException {
        synchronized (modeChange) {
            while (mode == Mode.BLACK_HOLE || cut.contains(link)) {
                modeChange.wait();
            }
        }
        long delay = delayMillis;
        if (mode == Mode.SLOW && delay > 0) {
            Thread.sleep(delay);
        }
    }

    @Override
    public void close() {
        closeQuietly(server);
        uncut();
        forward(); // releases held pumps, which then find their sockets closed
        sockets.forEach(FaultProxy::closeQuietly);
        sockets.clear();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort
        }
    }
}
