package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.StoreConfig;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import jakarta.persistence.EntityManagerFactory;
import java.lang.reflect.Proxy;
import java.util.UUID;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An application with several {@link EntityManagerFactory} beans, as every application with two persistence
 * units has on a Jakarta EE 11 server (Jakarta Persistence 3.2 makes each unit a {@code @Default} bean):
 * the store takes the one marked {@link ForLocks}; without one, the deployment fails naming the candidates
 * and the remedy (before: Weld's bare ambiguous-resolution error from inside Baton).
 */
class SeveralFactoriesTest {

    static final Backend BACKEND = new Backend(JpaDatabase.H2, Provider.HIBERNATE);
    static final String TABLE = BACKEND.tableName("several");

    /** A factory no lock may touch: the application's own units. */
    static EntityManagerFactory untouchable(String unit) {
        return (EntityManagerFactory) Proxy.newProxyInstance(
                SeveralFactoriesTest.class.getClassLoader(),
                new Class<?>[] {EntityManagerFactory.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("toString")) {
                        return "factory of unit " + unit;
                    }
                    throw new AssertionError(
                            "the lock store used the " + unit + " unit's factory (" + method.getName() + ")");
                });
    }

    /** The container's factories, one per unit, both {@code @Default}. */
    @ApplicationScoped
    public static class ContainerUnits {
        @Produces
        @Named("orders")
        EntityManagerFactory orders() {
            return untouchable("orders");
        }

        @Produces
        @Named("baton-locks")
        EntityManagerFactory locks() {
            return untouchable("baton-locks");
        }
    }

    /** The application's producer for the store. */
    @ApplicationScoped
    public static class LockStoreUnit {
        @Produces
        @ForLocks
        EntityManagerFactory locks() {
            return BACKEND.sharedFactory();
        }
    }

    @BeforeAll
    static void configure() {
        StoreConfig.register(TABLE);
    }

    @AfterAll
    static void unconfigure() {
        StoreConfig.release();
    }

    private static Weld weld(Class<?>... beans) {
        return new Weld()
                .disableDiscovery()
                .addExtensions(new BatonExtension(), new ConfigExtension())
                .addBeanClasses(beans);
    }

    @Test
    void theStoreTakesTheFactoryMarkedForLocks() {
        try (WeldContainer container =
                weld(ContainerUnits.class, LockStoreUnit.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            String key = "several:" + UUID.randomUUID();
            try (Lock lock = locks.acquire(key)) {
                assertThat(lock.isHeld()).isTrue();
                assertThat(lock.fencingToken()).isPositive();
            }
        }
    }

    @Test
    void severalDefaultFactoriesAndNoneMarkedFailTheDeploymentNamingThem() {
        assertThatThrownBy(() -> weld(ContainerUnits.class).initialize().close())
                .hasStackTraceContaining("2 beans of type jakarta.persistence.EntityManagerFactory")
                .hasStackTraceContaining("ContainerUnits.orders()")
                .hasStackTraceContaining("ContainerUnits.locks()")
                .hasStackTraceContaining("Mark the one for locks with @dev.baton.jpa.ForLocks");
    }
}
