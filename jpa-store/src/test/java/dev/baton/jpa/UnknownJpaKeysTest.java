package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.config.KnownKeys;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.jpa.testing.StoreConfig;
import dev.baton.spi.LockStoreFactory;
import dev.baton.tck.DeclaredSettings;
import io.smallrye.config.inject.ConfigExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * The JPA store declares the settings it reads, so that a misspelled {@code baton.jpa.*} key is reported at
 * deployment (a WARN naming the setting it was meant to be) and no documented one is.
 */
class UnknownJpaKeysTest {

    static final String TABLE = CdiWiringTest.BACKEND.tableName("unknown_keys");

    @Test
    void aMisspelledJpaSettingWarnsNamingTheStoresSetting() {
        StoreConfig.register(TABLE, Map.of("baton.jpa.tabel", "locks"));
        try {
            List<String> warnings = DeclaredSettings.warningsWhile(() -> {
                try (WeldContainer container = new Weld()
                        .disableDiscovery()
                        .addExtensions(new BatonExtension(), new ConfigExtension())
                        .addBeanClasses(CdiWiringTest.Factories.class)
                        .initialize()) {
                    // started: the check runs at deployment
                }
            });
            assertThat(warnings)
                    .filteredOn(w -> w.startsWith("BATON-08"))
                    .singleElement()
                    .asString()
                    .contains("BATON-080", "baton.jpa.tabel", "did you mean baton.jpa.table?");
        } finally {
            StoreConfig.release();
        }
    }

    /** The keys of the reference's JPA store table are all known: the reference and the factory cannot drift apart. */
    @Test
    void everyJpaKeyTheReferenceDocumentsIsRecognised() throws IOException {
        List<String> documented = DeclaredSettings.documentedKeys(Path.of("..", "docs", "reference.md")).stream()
                .filter(key -> key.startsWith("baton.jpa."))
                .toList();

        assertThat(documented).hasSizeGreaterThan(5);
        assertThat(KnownKeys.of(List.of(), StoreRegistry.factories()).unknown(documented))
                .isEmpty();
    }

    /** Every setting the factory reads is one it declares: one read but not declared would be warned about. */
    @Test
    void everySettingTheFactoryReadsIsDeclared() {
        LockStoreFactory factory = StoreRegistry.factories().get("jpa");
        var asked = DeclaredSettings.askedByValidate(factory, Map.of("data-source", "java:comp/DefaultDataSource"));

        assertThat(asked).contains("table", "mode", "purge-interval", "data-source");
        assertThat(factory.settingNames().orElseThrow()).containsAll(asked);
    }
}
