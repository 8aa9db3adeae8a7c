package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.StoreConfig;
import dev.baton.spi.StoreCapability;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.persistence.EntityManagerFactory;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The application's {@link EntityManagerFactory} from an {@code @ApplicationScoped} producer, the most common
 * way to declare it: the store gets a CDI client proxy, not the provider's factory, and must still recognise
 * Hibernate ORM or EclipseLink behind it — for the advisory mode's connections and for table mode's operations
 * on a pooled connection in auto-commit (and PostgreSQL's release notifications).
 */
class ProxiedFactoryCdiTest {

    /** The backend the container being started produces its factory for. */
    private static volatile EntityManagerFactory produced;

    /** The application's factory, normal-scoped: injection points get a client proxy. */
    static class Factories {
        @Produces
        @ApplicationScoped
        EntityManagerFactory factory() {
            return produced;
        }
    }

    static Stream<Backend> advisoryBackends() {
        return Stream.of(Provider.values()).map(p -> new Backend(JpaDatabase.POSTGRESQL, p));
    }

    static Stream<Backend> tableBackends() {
        return Stream.of(JpaDatabase.H2, JpaDatabase.POSTGRESQL)
                .flatMap(db -> Stream.of(Provider.values()).map(p -> new Backend(db, p)));
    }

    @ParameterizedTest
    @MethodSource("advisoryBackends")
    void advisoryModeTakesConnectionsThroughAProxiedFactory(Backend backend) {
        inContainer(backend, "advisory", Map.of("baton.jpa.mode", "advisory"), (weld, proxy) -> {
            acquiresAndExcludes(weld.select(Locks.class).get());
        });
    }

    @ParameterizedTest
    @MethodSource("tableBackends")
    void tableModeUsesThePooledPathThroughAProxiedFactory(Backend backend) {
        inContainer(backend, "table", Map.of(), (weld, proxy) -> {
            acquiresAndExcludes(weld.select(Locks.class).get());
            if (backend.database() == JpaDatabase.POSTGRESQL) {
                // one test of the provider opens both the pooled auto-commit path and release notifications
                try (JpaLockStore store = backend.store(proxy, backend.tableName("pxcap"))) {
                    store.database();
                    assertThat(store.capabilities())
                            .as("the store sees %s behind the proxy", backend.provider())
                            .contains(StoreCapability.RELEASE_NOTIFICATION);
                }
            }
        });
    }

    @FunctionalInterface
    private interface Check {
        void run(WeldContainer weld, EntityManagerFactory proxy);
    }

    private static void inContainer(Backend backend, String purpose, Map<String, String> more, Check check) {
        String table = backend.tableName("px" + purpose);
        EntityManagerFactory factory = backend.newFactory();
        produced = factory;
        StoreConfig.register(table, more);
        try (WeldContainer weld = new Weld()
                .disableDiscovery()
                .addExtensions(BatonExtension.class, ConfigExtension.class)
                .addBeanClasses(Factories.class)
                .initialize()) {
            EntityManagerFactory proxy = weld.select(EntityManagerFactory.class).get();
            assertThat(proxy).as("the premise: a client proxy").isNotSameAs(factory);
            assertThat(proxy.getClass().getName()).contains("Proxy");
            check.run(weld, proxy);
        } finally {
            StoreConfig.release();
            factory.close();
        }
    }

    private static void acquiresAndExcludes(Locks locks) {
        try {
            CdiWiringTest.excludeEachOther(locks, "proxied:" + UUID.randomUUID(), lock -> {});
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
