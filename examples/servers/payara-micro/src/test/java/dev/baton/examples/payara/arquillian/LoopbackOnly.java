package dev.baton.examples.payara.arquillian;

import dev.baton.examples.orders.demo.server.ListeningSockets;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.logging.Logger;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.core.api.annotation.Observes;

/**
 * Fails a deployment whose Payara Micro listens on anything but 127.0.0.1: its HTTP listener (bound by the
 * pre-boot command file of {@code arquillian.xml}) and its data grid (bound by {@code --interfaces}, a TCP/IP
 * member list on 127.0.0.1 and {@code -Dhazelcast.socket.bind.any=false}; {@code --nocluster} would leave it on
 * every interface). Checked on every deployment, so an adapter or server upgrade that loses a binding is
 * caught at once.
 */
public class LoopbackOnly {

    private static final Logger LOG = Logger.getLogger(LoopbackOnly.class.getName());

    public void check(@Observes ProtocolMetaData deployed) throws DeploymentException {
        if (!ListeningSockets.supported()) {
            LOG.warning("no /proc on this machine: cannot check that Payara Micro listens on 127.0.0.1 only");
            return;
        }
        List<ProcessHandle> servers = ProcessHandle.current()
                .children()
                .filter(child -> child.info().commandLine().orElse("").contains("payara-micro"))
                .toList();
        if (servers.isEmpty()) {
            throw new DeploymentException(
                    "no Payara Micro process among this JVM's children: cannot check its sockets");
        }
        for (ProcessHandle server : servers) {
            List<InetSocketAddress> exposed = ListeningSockets.notOnLoopback(server);
            if (!exposed.isEmpty()) {
                throw new DeploymentException("Payara Micro (pid " + server.pid() + ") listens beyond 127.0.0.1 on "
                        + exposed + "; every listener must be bound to loopback (see arquillian.xml)");
            }
        }
    }
}
