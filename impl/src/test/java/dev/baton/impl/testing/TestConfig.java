package dev.baton.impl.testing;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Registers a fresh MicroProfile Config for the test class (from {@link WithConfig}) before Weld starts,
 * and removes it afterwards, so every test class sees exactly its own configuration.
 */
public final class TestConfig implements BeforeAllCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        WithConfig with = context.getRequiredTestClass().getAnnotation(WithConfig.class);
        install(with == null ? new String[0] : with.value());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        uninstall();
    }

    /**
     * Installs a config with these {@code key=value} properties for the current class loader.
     *
     * @param properties the properties
     */
    public static void install(String... properties) {
        uninstall();
        Map<String, String> map = new HashMap<>();
        for (String property : properties) {
            int eq = property.indexOf('=');
            map.put(property.substring(0, eq).trim(), property.substring(eq + 1).trim());
        }
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(map, "test", 500))
                .build();
        ConfigProviderResolver.instance().registerConfig(config, loader());
    }

    /** Removes the config of the current class loader. */
    public static void uninstall() {
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        try {
            resolver.releaseConfig(resolver.getConfig(loader()));
        } catch (IllegalStateException ignored) {
            // nothing registered
        }
    }

    private static ClassLoader loader() {
        return Thread.currentThread().getContextClassLoader();
    }
}
