package dev.baton.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.config.KnownKeys;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.spi.LockStoreFactory;
import dev.baton.tck.DeclaredSettings;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The Redis store declares the settings it reads, so that a misspelled {@code baton.redis.*} key is reported at
 * deployment (a WARN naming the setting it was meant to be) and no documented one is.
 */
class UnknownRedisKeysTest {

    /** A deployment needs one bean class. */
    @ApplicationScoped
    public static class Unrelated {}

    /** A store's settings are checked whichever store the managers use: here memory, so no server is needed. */
    @Test
    void aMisspelledRedisSettingWarnsNamingTheStoresSetting() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ConfigProviderResolver resolver = ConfigProviderResolver.instance();
        resolver.registerConfig(
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(
                                Map.of("baton.store", "memory", "baton.redis.alow-eviction", "true"), "test", 500))
                        .build(),
                loader);
        try {
            List<String> warnings = DeclaredSettings.warningsWhile(() -> {
                try (WeldContainer container = new Weld()
                        .disableDiscovery()
                        .addExtensions(new BatonExtension(), new ConfigExtension())
                        .addBeanClasses(Unrelated.class)
                        .initialize()) {
                    // started: the check runs at deployment
                }
            });
            assertThat(warnings)
                    .filteredOn(w -> w.startsWith("BATON-08"))
                    .singleElement()
                    .asString()
                    .contains("BATON-080", "baton.redis.alow-eviction", "did you mean baton.redis.allow-eviction?");
        } finally {
            resolver.releaseConfig(resolver.getConfig(loader));
        }
    }

    /** The keys of the reference's Redis store table are all known: the reference and the factory cannot drift apart. */
    @Test
    void everyRedisKeyTheReferenceDocumentsIsRecognised() throws IOException {
        List<String> documented = DeclaredSettings.documentedKeys(Path.of("..", "docs", "reference.md")).stream()
                .filter(key -> key.startsWith("baton.redis."))
                .toList();

        assertThat(documented).hasSizeGreaterThan(4);
        assertThat(KnownKeys.of(List.of(), StoreRegistry.factories()).unknown(documented))
                .isEmpty();
    }

    /** Every setting the factory reads is one it declares: one read but not declared would be warned about. */
    @Test
    void everySettingTheFactoryReadsIsDeclared() {
        LockStoreFactory factory = StoreRegistry.factories().get("redis");
        var asked = DeclaredSettings.askedByValidate(factory, Map.of("url", "redis://127.0.0.1:6379"));

        assertThat(asked).contains("url", "cluster", "key-prefix", "command-timeout", "allow-eviction");
        assertThat(factory.settingNames().orElseThrow()).containsAll(asked);
    }
}
