package dev.baton.examples.payara.arquillian;

import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * What arquillian-payara-micro-managed needs here: {@link LoopbackRewriter} (the tests talk to Payara Micro
 * through 127.0.0.1, and a refused deployment fails), {@link LoopbackOnly} (a Payara Micro listening beyond
 * 127.0.0.1 fails its deployment) and {@link JavaForPayaraMicro} (a Payara Micro that
 * needs a newer JDK than the tests run on starts on one installed beside it; one whose deployment failed is
 * stopped).
 */
public class PayaraMicroExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(LoopbackRewriter.class);
        builder.observer(LoopbackOnly.class);
        builder.observer(JavaForPayaraMicro.class);
    }
}
