package dev.baton.impl.cdi;

import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.jaxrs.LockTimeoutExceptionMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.eclipse.microprofile.config.Config;

/**
 * The classes both of Baton's CDI extensions add to the application, so it needs no {@code beans.xml}
 * entry, and the priorities of its interceptors, which come from the configuration.
 */
final class BatonBeans {

    private BatonBeans() {}

    /**
     * @return the interceptors, the runtime and, where JAX-RS is present, the 409 mapper
     */
    static List<Class<?>> classes() {
        List<Class<?>> classes = new ArrayList<>(List.of(
                SynchronizedInterceptor.class, ExclusiveInterceptor.class, LeaderInterceptor.class, LockRuntime.class));
        if (jaxRsPresent()) {
            // As a bean, the 409 mapper is also found by runtimes that register providers only from CDI
            // (Helidon), not by scanning library jars.
            classes.add(LockTimeoutExceptionMapper.class);
        }
        return classes;
    }

    /**
     * @param beanClass one of {@link #classes()}
     * @param config the application's configuration
     * @return the configured priority of an interceptor, empty for the other classes
     */
    static OptionalInt priority(Class<?> beanClass, Config config) {
        if (beanClass == SynchronizedInterceptor.class) {
            return OptionalInt.of(BatonConfig.interceptorPriority(config));
        }
        if (beanClass == ExclusiveInterceptor.class) {
            return OptionalInt.of(BatonConfig.exclusivePriority(config));
        }
        return OptionalInt.empty();
    }

    private static boolean jaxRsPresent() {
        try {
            Class.forName("jakarta.ws.rs.ext.ExceptionMapper", false, BatonBeans.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
