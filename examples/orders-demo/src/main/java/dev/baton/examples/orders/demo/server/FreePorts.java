package dev.baton.examples.orders.demo.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on the loopback interface, for servers started by the examples and their tests. */
public final class FreePorts {

    private FreePorts() {}

    /**
     * A port that was free on 127.0.0.1 a moment ago (the operating system picks it). Another process
     * may still take it before the caller binds it; callers start one server per call.
     *
     * @return a port number
     */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on the loopback interface", e);
        }
    }
}
