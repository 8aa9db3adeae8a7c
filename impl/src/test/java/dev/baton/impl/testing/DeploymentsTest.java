package dev.baton.impl.testing;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.LockKeyResolver;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.lang.reflect.Method;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * {@link Deployments#assertDeploymentFails} accepts only a deployment that the container refuses because
 * of Baton: not one that starts, not one refused for another reason, not one that fails later.
 */
class DeploymentsTest {

    private static final String[] NO_CONFIG = {};

    @ApplicationScoped
    public static class Fine {
        @Synchronized("fine:{id}")
        public void pay(long id) {}
    }

    @ApplicationScoped
    public static class BadTemplate {
        @Synchronized("order:{orderId}")
        public void pay(long id) {}
    }

    /** A key resolver that is not a bean of the deployment (no discovery: only the listed classes are). */
    public static class MissingKeys implements LockKeyResolver {
        @Override
        public String resolveKey(Method method, Object[] arguments) {
            return "k";
        }
    }

    /** Another one. */
    public static class OtherMissingKeys extends MissingKeys {}

    @ApplicationScoped
    public static class NamesMissingKeys {
        @Synchronized(resolver = MissingKeys.class)
        public void pay() {}
    }

    @ApplicationScoped
    public static class NamesOtherMissingKeys {
        @Synchronized(resolver = OtherMissingKeys.class)
        public void pay() {}
    }

    /** Not Baton's problem: an injection point no bean satisfies. */
    @ApplicationScoped
    public static class Unsatisfied {
        @Inject
        Runnable nothingProducesThis;
    }

    /** A configuration failure that comes only when the application starts using Baton, after the deployment. */
    @ApplicationScoped
    public static class FailsAtStartup {
        void start(@Observes @Initialized(ApplicationScoped.class) Object event) {
            throw new LockConfigurationException("thrown at startup, after the deployment was validated");
        }
    }

    /** The only store: named after the manager {@code reports}, so the default manager has none. */
    public static class ReportsStore {
        @Produces
        @Singleton
        @Named("reports")
        static final LockStore STORE = new MemoryLockStore();
    }

    @Test
    void aDeploymentBatonRefusesPasses() {
        assertDeploymentFails(NO_CONFIG, BadTemplate.class)
                .hasStackTraceContaining("orderId")
                .satisfies(failure -> assertThat(Deployments.lockConfigurationExceptions(failure))
                        .hasSize(1));
    }

    /** Weld adds each of several deployment problems to its exception as a suppressed exception. */
    @Test
    void severalProblemsPassEachReported() {
        assertDeploymentFails(NO_CONFIG, NamesMissingKeys.class, NamesOtherMissingKeys.class)
                .satisfies(failure -> assertThat(Deployments.lockConfigurationExceptions(failure))
                        .hasSize(2));
    }

    @Test
    void aDeploymentThatStartsFailsTheAssertion() {
        assertThatThrownBy(() -> assertDeploymentFails(NO_CONFIG, Fine.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("[Fine]")
                .hasMessageContaining("the container started");
    }

    @Test
    void aDeploymentRefusedForAnotherReasonFailsTheAssertion() {
        assertThatThrownBy(() -> assertDeploymentFails(NO_CONFIG, Fine.class, Unsatisfied.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("none is among the causes")
                .hasMessageContaining("nothingProducesThis");
    }

    @Test
    void aLockConfigurationExceptionThrownOnceStartedFailsTheAssertion() {
        assertThatThrownBy(() -> assertDeploymentFails(NO_CONFIG, FailsAtStartup.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("to fail with a CDI DefinitionException or DeploymentException");
    }

    @Test
    void aFailureThatWouldOnlyComeAtFirstUseFailsTheAssertion() {
        // A default manager without a store is allowed (an application may use named managers only):
        // Locks.acquire on it throws LockConfigurationException, but only when called.
        String[] config = {"baton.managers=reports"};
        TestConfig.install(config);
        try (WeldContainer container = Deployments.weld(ReportsStore.class).initialize()) {
            assertThatThrownBy(() -> container.select(Locks.class).get().acquire("k"))
                    .isInstanceOf(LockConfigurationException.class);
        } finally {
            TestConfig.uninstall();
        }
        assertThatThrownBy(() -> assertDeploymentFails(config, ReportsStore.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the container started");
    }
}
