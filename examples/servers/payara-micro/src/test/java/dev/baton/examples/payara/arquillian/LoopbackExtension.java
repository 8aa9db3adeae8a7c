package dev.baton.examples.payara.arquillian;

import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Makes the tests talk to Payara Micro through 127.0.0.1.
 *
 * <p>Payara Micro listens on every interface but reports its data grid's address (the first
 * non-loopback one) as the application's host, and arquillian-payara-micro-managed hands that to
 * {@code @ArquillianResource URL}. Neither {@code --interfaces}, {@code --hzPublicAddress} nor
 * {@code -Dhazelcast.local.localAddress} changes it with {@code --nocluster}; so the host is
 * rewritten on the client side.
 */
public class LoopbackExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(LoopbackRewriter.class);
    }
}
