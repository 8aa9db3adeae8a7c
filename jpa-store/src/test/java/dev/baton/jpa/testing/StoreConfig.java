package dev.baton.jpa.testing;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

/**
 * The MicroProfile Config of a Weld test that runs {@code baton.store=jpa} on one table: registered for
 * the test class's class loader before its containers start, released after.
 */
public final class StoreConfig {

    private StoreConfig() {}

    /** Registers {@code baton.store=jpa} on {@code table} (and {@code <table>_seq}), created if missing. */
    public static void register(String table) {
        register(table, Map.of());
    }

    /**
     * As {@link #register(String)}, with more settings.
     *
     * @param table the table
     * @param more more keys and values, e.g. {@code baton.jpa.data-source}
     */
    public static void register(String table, Map<String, String> more) {
        Map<String, String> settings = new java.util.HashMap<>(more);
        settings.putAll(Map.of(
                "baton.store",
                "jpa",
                "baton.jpa.table",
                table,
                "baton.jpa.sequence",
                table + "_seq",
                "baton.jpa.schema-action",
                "create"));
        ConfigProviderResolver.instance()
                .registerConfig(
                        new SmallRyeConfigBuilder()
                                .addDefaultInterceptors()
                                .withSources(new PropertiesConfigSource(settings, "test", 500))
                                .build(),
                        Thread.currentThread().getContextClassLoader());
    }

    /** Releases what {@link #register} registered. */
    public static void release() {
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        resolver.releaseConfig(resolver.getConfig(Thread.currentThread().getContextClassLoader()));
    }
}
