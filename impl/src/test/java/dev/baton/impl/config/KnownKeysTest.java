package dev.baton.impl.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.runtime.BeanLookup;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry of known keys: what each part of Baton declares it reads is what it reads, and the rules the
 * deployment's warnings ({@code UnknownKeysTest}) rest on.
 */
class KnownKeysTest {

    @TempDir
    Path directory;

    /**
     * Every {@code baton.*} key the configuration and the stores ask MicroProfile Config for is one the registry
     * knows: a key read but not declared would be warned about while it works.
     */
    @Test
    void everyKeyBatonAsksForIsKnown() {
        Set<String> asked = new ConcurrentSkipListSet<>();
        Config config = recording(
                asked,
                "baton.managers=reports",
                "baton.store=file",
                "baton.file.directory=" + directory,
                "baton.reports.store=file",
                "baton.reports.file.directory=" + directory);
        BatonConfig cfg = BatonConfig.read(config);
        BatonConfig.interceptorPriority(config);
        BatonConfig.exclusivePriority(config);
        BeanLookup noBeans = new BeanLookup() {
            @Override
            public <T> Optional<T> bean(Class<T> type, java.lang.annotation.Annotation... qualifiers) {
                return Optional.empty();
            }
        };
        StoreRegistry.validate(cfg, noBeans);
        StoreRegistry.create(cfg, "reports", "file", noBeans).close();
        StoreRegistry.createUnconfiguredMemory(cfg, noBeans).close();

        assertThat(asked)
                .contains("baton.ttl", "baton.reports.ttl", "baton.file.directory", "baton.reports.file.directory");
        KnownKeys known = KnownKeys.of(List.of("reports"), StoreRegistry.factories());
        assertThat(known.unknown(asked)).as("keys asked for but not known").isEmpty();
    }

    @Test
    void theKeysOfAStoreThatDeclaresNoneAreNotCheckedButThoseOfAStoreWithNoSettingsAre() {
        Map<String, LockStoreFactory> factories = new TreeMap<>(StoreRegistry.factories());
        factories.put("custom", new LockStoreFactory() {
            @Override
            public String name() {
                return "custom";
            }

            @Override
            public LockStore create(StoreContext context) {
                throw new UnsupportedOperationException();
            }
        });
        KnownKeys known = KnownKeys.of(List.of("reports"), factories);

        assertThat(known.check("baton.custom.anything")).isEmpty();
        assertThat(known.check("baton.reports.custom.anything")).isEmpty();
        assertThat(known.check("baton.memory.size")).isPresent();
    }

    @Test
    void onlyNamesUnderTheBatonPrefixAreChecked() {
        KnownKeys known = KnownKeys.of(List.of(), StoreRegistry.factories());

        assertThat(known.check("BATON_TLL"))
                .as("an environment variable, as MicroProfile Config lists it")
                .isEmpty();
        assertThat(known.check("baton.Nightly/run/Exclusive/hold"))
                .as("a per-method override")
                .isEmpty();
        assertThat(known.check("baton.tck.timeFactor"))
                .as("the TCK's own setting, a system property of the JVM that runs the application under test")
                .isEmpty();
        assertThat(known.check("baton.tll")).isPresent();
    }

    @Test
    void aGuessIsGivenOnlyWhenItIsClose() {
        KnownKeys known = KnownKeys.of(List.of(), StoreRegistry.factories());

        assertThat(known.check("baton.jpa.tabel").orElseThrow().closest())
                .as("no guess among the keys of a store that is not on the class path")
                .isEmpty();
        assertThat(known.check("baton.shutdown-gracee").orElseThrow().closest()).contains("baton.shutdown-grace");
        assertThat(known.check("baton.pol-jiter").orElseThrow().closest()).contains("baton.poll-jitter");
        assertThat(known.check("baton.renew").orElseThrow().closest()).isEmpty();
    }

    @Test
    void theEditDistanceCountsATranspositionAsOneEdit() {
        assertThat(EditDistance.between("tabel", "table")).isEqualTo(1);
        assertThat(EditDistance.between("ttl", "tll")).isEqualTo(1);
        assertThat(EditDistance.between("", "ttl")).isEqualTo(3);
        assertThat(EditDistance.between("kitten", "sitting")).isEqualTo(3);
    }

    /** A configuration of these properties that records every key asked for. */
    private static Config recording(Set<String> asked, String... properties) {
        Map<String, String> map = new HashMap<>();
        for (String p : properties) {
            map.put(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1));
        }
        Config real = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(map, "test", 500))
                .build();
        return (Config) Proxy.newProxyInstance(
                KnownKeysTest.class.getClassLoader(), new Class<?>[] {Config.class}, (proxy, method, args) -> {
                    if (args != null
                            && args.length > 0
                            && args[0] instanceof String key
                            && method.getName().matches("get(Optional)?Values?|getConfigValue")) {
                        asked.add(key);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
