package dev.baton.impl.cdi;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockConfigurationException;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Named;
import jakarta.inject.Qualifier;
import jakarta.inject.Singleton;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How each lock manager finds its store, and that Baton never falls back to the in-memory store on its
 * own: a named manager uses its own {@code baton.<name>.store}, else a {@code LockStore} bean
 * {@code @Named("<name>")}, else the very store of the default manager; the default manager uses
 * {@code baton.store}, else the application's {@code @Default LockStore} bean that is not named after a
 * manager, else — only when nothing is configured and there is no {@code LockStore} bean at all — the
 * memory store, with a warning. What cannot be resolved fails the deployment.
 */
class StoreResolutionTest {

    public static class SharedStore {
        @Produces
        @Singleton
        LockStore store() {
            return new MemoryLockStore();
        }
    }

    public static class SecondSharedStore {
        @Produces
        @Singleton
        MemoryLockStore another() {
            return new MemoryLockStore();
        }
    }

    public static class ReportsStore {
        @Produces
        @Singleton
        @Named("reports")
        LockStore store() {
            return new MemoryLockStore();
        }
    }

    public static class ReportsStoreAgain {
        @Produces
        @Singleton
        @Named("reports")
        MemoryLockStore store() {
            return new MemoryLockStore();
        }
    }

    public static class AuditStore {
        @Produces
        @Singleton
        @Named("audit")
        LockStore store() {
            return new MemoryLockStore();
        }
    }

    @Qualifier
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER, ElementType.TYPE})
    public @interface Special {}

    public static class SpecialStore {
        @Produces
        @Singleton
        @Special
        LockStore store() {
            return new MemoryLockStore();
        }
    }

    @ApplicationScoped
    public static class Reports {
        /** Whether another owner gets the key on {@code store} while this method holds it. */
        @Synchronized(value = "report", manager = "reports")
        public boolean anotherOwnerGetsTheKey(LockStore store) {
            return store.acquire(Acquisition.of("report", "another-instance", 1_000))
                    .isAcquired();
        }
    }

    @ApplicationScoped
    public static class DefaultManagerUser {
        @Synchronized("work")
        public void work() {}
    }

    /** A deployment needs one bean class. */
    @ApplicationScoped
    public static class Unrelated {}

    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void captureLog() {
        Logger.getLogger("dev.baton").addHandler(capture);
    }

    @AfterEach
    void clean() {
        Logger.getLogger("dev.baton").removeHandler(capture);
        TestConfig.uninstall();
    }

    // --- item 1: a named manager without a store of its own ---

    @Test
    void aNamedManagerWithoutAStoreOfItsOwnUsesTheApplicationsStoreBean() {
        TestConfig.install("baton.managers=reports", "baton.reports.ttl=5m");
        try (WeldContainer container =
                Deployments.weld(SharedStore.class, Reports.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            LockStore store = container.select(LockStore.class).get();

            try (Lock lock = locks.manager("reports").acquire("k")) {
                assertThat(store.acquire(Acquisition.of("k", "another-instance", 1_000))
                                .isAcquired())
                        .as("another owner on the application's store while manager 'reports' holds the key")
                        .isFalse();
            }
            assertThat(container.select(Reports.class).get().anotherOwnerGetsTheKey(store))
                    .as("another owner while a @Synchronized(manager = \"reports\") method holds the key")
                    .isFalse();
            try (Lock lock = locks.acquire("d")) {
                assertThat(store.acquire(Acquisition.of("d", "another-instance", 1_000))
                                .isAcquired())
                        .as("the default manager's key")
                        .isFalse();
            }
        }
    }

    @Test
    void withNothingConfiguredAndNoStoreBeanTheMemoryStoreIsUsedWithOneWarningAtStartAndSharedByNamedManagers() {
        TestConfig.install("baton.managers=reports");
        try (WeldContainer container = Deployments.weld(Unrelated.class).initialize()) {
            assertThat(warnings())
                    .as("warnings at start, before any lock")
                    .hasSize(1)
                    .first()
                    .asString()
                    .contains("BATON-020")
                    .contains("local to this JVM")
                    .contains("baton.store=memory");
            Locks locks = container.select(Locks.class).get();
            try (Lock lock = locks.acquire("k")) {
                assertThat(locks.manager("reports").tryAcquire("k"))
                        .as("the same key through the named manager")
                        .isEmpty();
            }
            assertThat(warnings()).hasSize(1);
        }
    }

    @Test
    void theMemoryStoreConfiguredIsSharedByNamedManagersWithoutWarning() {
        TestConfig.install("baton.store=memory", "baton.managers=reports");
        try (WeldContainer container = Deployments.weld(Unrelated.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            try (Lock lock = locks.manager("reports").acquire("k")) {
                assertThat(locks.tryAcquire("k"))
                        .as("the same key through the default manager")
                        .isEmpty();
            }
            assertThat(warnings()).isEmpty();
        }
    }

    @Test
    void aNamedManagersOwnStoreSettingWins() {
        TestConfig.install("baton.managers=reports", "baton.reports.store=memory");
        try (WeldContainer container = Deployments.weld(SharedStore.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            LockStore store = container.select(LockStore.class).get();
            try (Lock lock = locks.manager("reports").acquire("k")) {
                assertThat(store.acquire(Acquisition.of("k", "another-instance", 1_000))
                                .isAcquired())
                        .as("the application's bean is not the store of a manager with baton.reports.store")
                        .isTrue();
            }
        }
    }

    // --- item 2: stores resolved by qualifier ---

    @Test
    void theDefaultManagerTakesTheUnnamedBeanAndANamedManagerTheBeanNamedAfterIt() {
        TestConfig.install("baton.managers=reports");
        try (WeldContainer container =
                Deployments.weld(SharedStore.class, ReportsStore.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            LockStore shared =
                    container.select(LockStore.class, jakarta.enterprise.inject.Default.Literal.INSTANCE).stream()
                            .filter(store -> store
                                    != container
                                            .select(LockStore.class, NamedLiteral.of("reports"))
                                            .get())
                            .findFirst()
                            .orElseThrow();
            LockStore reports = container
                    .select(LockStore.class, NamedLiteral.of("reports"))
                    .get();

            try (Lock lock = locks.acquire("d")) {
                assertThat(shared.acquire(Acquisition.of("d", "another-instance", 1_000))
                                .isAcquired())
                        .as("the default manager's store")
                        .isFalse();
                assertThat(reports.acquire(Acquisition.of("d", "another-instance", 1_000))
                                .isAcquired())
                        .as("not the reports store")
                        .isTrue();
            }
            try (Lock lock = locks.manager("reports").acquire("r")) {
                assertThat(reports.acquire(Acquisition.of("r", "another-instance", 1_000))
                                .isAcquired())
                        .as("the reports store")
                        .isFalse();
                assertThat(shared.acquire(Acquisition.of("r", "another-instance", 1_000))
                                .isAcquired())
                        .as("not the default store")
                        .isTrue();
            }
        }
    }

    @Test
    void twoBeansNamedAfterTwoManagersServeThemAndTheDefaultManagerHasNoStore() {
        TestConfig.install("baton.managers=reports,audit");
        try (WeldContainer container =
                Deployments.weld(ReportsStore.class, AuditStore.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            assertThat(locks.name()).isEmpty();
            LockStore reports = container
                    .select(LockStore.class, NamedLiteral.of("reports"))
                    .get();
            LockStore audit =
                    container.select(LockStore.class, NamedLiteral.of("audit")).get();

            try (Lock lock = locks.manager("reports").acquire("k")) {
                assertThat(reports.acquire(Acquisition.of("k", "another-instance", 1_000))
                                .isAcquired())
                        .as("the reports store")
                        .isFalse();
            }
            try (Lock lock = locks.manager("audit").acquire("k")) {
                assertThat(audit.acquire(Acquisition.of("k", "another-instance", 1_000))
                                .isAcquired())
                        .as("the audit store")
                        .isFalse();
            }
            assertThatThrownBy(() -> locks.acquire("k"))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasStackTraceContaining("default")
                    .hasStackTraceContaining("baton.store")
                    .hasStackTraceContaining("@Named(\"reports\")");
        }
    }

    @Test
    void twoUnnamedStoreBeansFailTheDeployment() {
        assertDeploymentFails(new String[0], SharedStore.class, SecondSharedStore.class)
                .hasStackTraceContaining("default lock manager has 2 LockStore beans")
                .hasStackTraceContaining(SharedStore.class.getName())
                .hasStackTraceContaining(SecondSharedStore.class.getName());
    }

    /**
     * Two enabled beans of one name are an ambiguous EL name, which CDI itself makes a deployment problem: the
     * container refuses the deployment (Weld: WELD-001414) while validating the beans, before Baton's
     * {@code AfterDeploymentValidation} check could run. So the failure is the container's, not a
     * {@code LockConfigurationException}; this test pins that the deployment fails all the same.
     */
    @Test
    void twoStoreBeansNamedAfterOneManagerAreRefusedByTheContainer() {
        TestConfig.install("baton.managers=reports", "baton.store=memory");
        assertThatThrownBy(() -> Deployments.weld(ReportsStore.class, ReportsStoreAgain.class)
                        .initialize()
                        .close())
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("reports")
                .satisfies(failure -> assertThat(Deployments.lockConfigurationExceptions(failure))
                        .as("Baton's own check never ran")
                        .isEmpty());
    }

    @Test
    void aNamedManagerWithNowhereToFindAStoreFailsTheDeployment() {
        assertDeploymentFails(new String[] {"baton.managers=reports,audit"}, AuditStore.class)
                .hasStackTraceContaining("Lock manager 'reports' has no store")
                .hasStackTraceContaining("baton.reports.store")
                .hasStackTraceContaining("@Named(\"reports\")")
                .hasStackTraceContaining("baton.store");
    }

    @Test
    void aStoreBeanOnlyUnderAnotherQualifierFailsTheDeployment() {
        assertDeploymentFails(new String[0], SpecialStore.class)
                .hasStackTraceContaining("default lock manager has no store")
                .hasStackTraceContaining("@Special");
    }

    @Test
    void aSynchronizedMethodOfAManagerWithoutAStoreFailsTheDeployment() {
        assertDeploymentFails(new String[] {"baton.managers=reports"}, ReportsStore.class, DefaultManagerUser.class)
                .hasStackTraceContaining(DefaultManagerUser.class.getName() + ".work()")
                .hasStackTraceContaining("default lock manager has no store");
    }

    @Test
    void storeSettingsOfANamedManagerThatSharesTheDefaultStoreFailTheDeployment() {
        assertDeploymentFails(
                        new String[] {"baton.store=memory", "baton.managers=reports", "baton.reports.memory.size=3"},
                        Unrelated.class)
                .hasStackTraceContaining("baton.reports.memory.size")
                .hasStackTraceContaining("baton.reports.store=memory");
    }

    private List<String> warnings() {
        return logged.stream()
                .filter(r -> r.getLevel() == Level.WARNING)
                .map(r -> r.getParameters() == null
                        ? r.getMessage()
                        : java.text.MessageFormat.format(r.getMessage(), r.getParameters()))
                .toList();
    }
}
