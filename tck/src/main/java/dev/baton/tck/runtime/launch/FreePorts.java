package dev.baton.tck.runtime.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on the loopback interface, for servers that tests and examples start. */
public final class FreePorts {

    private FreePorts() {}

    /**
     * A port that was free on 127.0.0.1 a moment ago (the operating system picks it). Another process
     * may still take it before the caller binds it; callers start one server per call.
     *
     * @return a port number
     * @throws UncheckedIOException if the loopback interface has no free port
     */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on the loopback interface", e);
        }
    }
}
