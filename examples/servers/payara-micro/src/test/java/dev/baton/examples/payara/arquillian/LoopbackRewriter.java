package dev.baton.examples.payara.arquillian;

import java.util.logging.Logger;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.arquillian.container.spi.context.annotation.DeploymentScoped;
import org.jboss.arquillian.core.api.InstanceProducer;
import org.jboss.arquillian.core.api.annotation.Inject;
import org.jboss.arquillian.core.api.annotation.Observes;

/**
 * Replaces the host of every {@link HTTPContext} of a deployment with {@value #LOOPBACK}, and turns a
 * deployment that Payara Micro refused into a {@link DeploymentException}: the adapter reports the
 * server as started with no application in it (the application's context root is missing), which
 * would otherwise only surface as 404s.
 */
public class LoopbackRewriter {

    static final String LOOPBACK = "127.0.0.1";
    private static final Logger LOG = Logger.getLogger(LoopbackRewriter.class.getName());

    @Inject
    @DeploymentScoped
    private InstanceProducer<ProtocolMetaData> metadata;

    public void rewrite(@Observes ProtocolMetaData deployed) throws DeploymentException {
        if (deployed.getContexts(HTTPContext.class).stream()
                .allMatch(http -> http.getServlets().isEmpty())) {
            throw new DeploymentException("Payara Micro started without the application: the deployment failed"
                    + " (its reason is in the Payara Micro output above)");
        }
        boolean local =
                deployed.getContexts(HTTPContext.class).stream().allMatch(http -> LOOPBACK.equals(http.getHost()));
        if (local) {
            return;
        }
        ProtocolMetaData rewritten = new ProtocolMetaData();
        for (Object context : deployed.getContexts()) {
            if (context instanceof HTTPContext http) {
                LOG.info(() -> "Payara Micro reported " + http.getHost() + ":" + http.getPort() + "; the tests use "
                        + LOOPBACK + ":" + http.getPort());
                HTTPContext loopback = new HTTPContext(LOOPBACK, http.getPort());
                for (Servlet servlet : http.getServlets()) {
                    loopback.add(new Servlet(servlet.getName(), servlet.getContextRoot()));
                }
                rewritten.addContext(loopback);
            } else {
                rewritten.addContext(context);
            }
        }
        metadata.set(rewritten);
    }
}
