package dev.baton.tck.runtime.smoke;

import dev.baton.spi.LockStoreFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ServiceLoader;
import java.util.TreeSet;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** A CDI bean that reads the deployment's configuration and sees the Baton libraries. */
@ApplicationScoped
public class SmokeBean {

    @Inject
    @ConfigProperty(name = "tck.smoke.greeting")
    String greeting;

    String greeting() {
        return greeting;
    }

    /** The names of the lock stores the deployment can see through {@link ServiceLoader}. */
    String storeNames() {
        TreeSet<String> names = new TreeSet<>();
        // The application's own loader: a request thread's context loader may be the server's (TomEE's JAX-RS).
        ClassLoader loader = SmokeBean.class.getClassLoader();
        for (LockStoreFactory factory : ServiceLoader.load(LockStoreFactory.class, loader)) {
            names.add(factory.name());
        }
        return String.join(",", names);
    }
}
