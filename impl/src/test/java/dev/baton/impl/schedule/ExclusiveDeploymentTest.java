package dev.baton.impl.schedule;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Exclusive;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import jakarta.ejb.Schedule;
import jakarta.ejb.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/** Each misuse of {@code @Exclusive} fails the deployment, naming the class, the method and the value. */
class ExclusiveDeploymentTest {

    private static final String[] NO_CONFIG = {};

    @ApplicationScoped
    public static class NoPeriod {
        @Exclusive
        public void run() {}
    }

    @ApplicationScoped
    public static class HoldNotShorterThanPeriod {
        @Exclusive(period = "5s", hold = "5s")
        public void run() {}
    }

    @ApplicationScoped
    public static class Parameters {
        @Exclusive(period = "1m")
        public void run(String region) {}
    }

    @ApplicationScoped
    public static class PrimitiveResult {
        @Exclusive(period = "1m")
        public int run() {
            return 1;
        }
    }

    @ApplicationScoped
    @Exclusive
    public static class OnTheClass {
        public void run() {}
    }

    @ApplicationScoped
    public static class UnknownManager {
        @Exclusive(period = "1m", manager = "reports")
        public void run() {}
    }

    @ApplicationScoped
    public static class PeriodOnly {
        @Exclusive(period = "30s")
        public void run() {}
    }

    @ApplicationScoped
    public static class BadPeriod {
        @Exclusive(period = "soon")
        public void run() {}
    }

    /** What deploys: an EJB timeout method with its Timer, and a plain method with a period and a hold. */
    @ApplicationScoped
    public static class Valid {
        @Exclusive
        @Schedule(second = "*/2", minute = "*", hour = "*", persistent = false)
        public void timed(Timer timer) {}

        @Exclusive(period = "1m", hold = "10s")
        public String plain() {
            return "ran";
        }
    }

    @Test
    void aMethodWhosePeriodCannotBeKnown() {
        assertDeploymentFails(NO_CONFIG, NoPeriod.class)
                .hasStackTraceContaining("@Exclusive on " + NoPeriod.class.getName() + ".run()")
                .hasStackTraceContaining("the period between its planned firings cannot be known")
                .hasStackTraceContaining(NoPeriod.class.getName() + "/run/Exclusive/period");
    }

    @Test
    void aHoldNotShorterThanThePeriod() {
        assertDeploymentFails(NO_CONFIG, HoldNotShorterThanPeriod.class)
                .hasStackTraceContaining("@Exclusive on " + HoldNotShorterThanPeriod.class.getName() + ".run()")
                .hasStackTraceContaining("hold hold = \"5s\" (5000 ms) is not shorter than the period period = \"5s\"");
    }

    @Test
    void aHoldFromConfigurationLongerThanThePeriod() {
        assertDeploymentFails(new String[] {Valid.class.getName() + "/plain/Exclusive/hold=2m"}, Valid.class)
                .hasStackTraceContaining("@Exclusive on " + Valid.class.getName() + ".plain()")
                .hasStackTraceContaining(Valid.class.getName() + "/plain/Exclusive/hold=2m (120000 ms)");
        assertDeploymentFails(new String[] {"baton.exclusive.hold=1m"}, PeriodOnly.class)
                .hasStackTraceContaining("@Exclusive on " + PeriodOnly.class.getName() + ".run()")
                .hasStackTraceContaining("baton.exclusive.hold (60000 ms)");
    }

    @Test
    void parametersNoSchedulerSupplies() {
        assertDeploymentFails(NO_CONFIG, Parameters.class)
                .hasStackTraceContaining("@Exclusive on " + Parameters.class.getName() + ".run()")
                .hasStackTraceContaining("parameters (java.lang.String) that no scheduler supplies");
    }

    @Test
    void aPrimitiveResult() {
        assertDeploymentFails(NO_CONFIG, PrimitiveResult.class)
                .hasStackTraceContaining("@Exclusive on " + PrimitiveResult.class.getName() + ".run()")
                .hasStackTraceContaining("it returns int");
    }

    @Test
    void onAClass() {
        assertDeploymentFails(NO_CONFIG, OnTheClass.class)
                .hasStackTraceContaining("@Exclusive on the class " + OnTheClass.class.getName());
    }

    @Test
    void anUndeclaredManager() {
        assertDeploymentFails(NO_CONFIG, UnknownManager.class)
                .hasStackTraceContaining("@Exclusive on " + UnknownManager.class.getName() + ".run()")
                .hasStackTraceContaining("manager 'reports' is not declared");
    }

    @Test
    void aPeriodThatIsNoDuration() {
        assertDeploymentFails(NO_CONFIG, BadPeriod.class)
                .hasStackTraceContaining("@Exclusive on " + BadPeriod.class.getName() + ".run()")
                .hasStackTraceContaining("soon");
    }

    static final MemoryLockStore STORE = new MemoryLockStore();

    public static class Store {
        @Produces
        @Singleton
        LockStore store() {
            return STORE;
        }
    }

    @Test
    void perMethodOverridesSetTheKeyAndTheHold() throws Exception {
        String prefix = PeriodOnly.class.getName() + "/run/Exclusive/";
        TestConfig.install(prefix + "hold=300ms", prefix + "value=nightly");
        try (WeldContainer container =
                Deployments.weld(Store.class, PeriodOnly.class).initialize()) {
            long fired = System.nanoTime();
            container.select(PeriodOnly.class).get().run();
            assertThat(STORE.acquire(Acquisition.of("nightly", "other-instance", 60_000))
                            .isAcquired())
                    .as("held under the configured key")
                    .isFalse();
            Thread.sleep(Math.max(0, 400 - (System.nanoTime() - fired) / 1_000_000));
            assertThat(STORE.acquire(Acquisition.of("nightly", "other-instance", 60_000))
                            .isAcquired())
                    .as("free after the configured hold")
                    .isTrue();
        } finally {
            TestConfig.uninstall();
        }
    }

    @Test
    void anEjbTimeoutMethodAndAPlainMethodWithAPeriodDeploy() {
        TestConfig.install();
        try (WeldContainer container = Deployments.weld(Valid.class).initialize()) {
            assertThat(container.select(Valid.class).get().plain()).isEqualTo("ran");
        } finally {
            TestConfig.uninstall();
        }
    }
}
