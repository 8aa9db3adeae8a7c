package dev.baton.examples.helidon.arquillian;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/** Registers the Helidon MP container with Arquillian. */
public class HelidonArquillianExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.service(DeployableContainer.class, HelidonDeployableContainer.class);
    }
}
