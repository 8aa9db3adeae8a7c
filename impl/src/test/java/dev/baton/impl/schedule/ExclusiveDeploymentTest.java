package dev.baton.impl.schedule;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Exclusive;
import dev.baton.impl.config.BatonConfig;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import jakarta.ejb.Schedule;
import jakarta.ejb.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
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

    @ApplicationScoped
    public static class BadRetention {
        @Exclusive(period = "1m", retention = "0s")
        public void run() {}
    }

    @ApplicationScoped
    public static class NotARetention {
        @Exclusive(period = "1m", retention = "a while")
        public void run() {}
    }

    @ApplicationScoped
    public static class LongKey {
        @Exclusive(period = "1m", value = "k")
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

    @Test
    void aRetentionThatIsNotPositive() {
        assertDeploymentFails(NO_CONFIG, BadRetention.class)
                .hasStackTraceContaining("@Exclusive on " + BadRetention.class.getName() + ".run()")
                .hasStackTraceContaining("retention = \"0s\"")
                .hasStackTraceContaining("must be at least 1 ms");
        assertDeploymentFails(NO_CONFIG, NotARetention.class)
                .hasStackTraceContaining("@Exclusive on " + NotARetention.class.getName() + ".run()")
                .hasStackTraceContaining("a while");
    }

    @Test
    void aRetentionOrRetryFailedFromConfigurationThatIsInvalid() {
        assertDeploymentFails(
                        new String[] {PeriodOnly.class.getName() + "/run/Exclusive/retention=-5m"}, PeriodOnly.class)
                .hasStackTraceContaining("@Exclusive on " + PeriodOnly.class.getName() + ".run()")
                .hasStackTraceContaining(PeriodOnly.class.getName() + "/run/Exclusive/retention")
                .hasStackTraceContaining("-5m");
        assertDeploymentFails(new String[] {"Exclusive/retryFailed=maybe"}, PeriodOnly.class)
                .hasStackTraceContaining("@Exclusive on " + PeriodOnly.class.getName() + ".run()")
                .hasStackTraceContaining("Exclusive/retryFailed='maybe' is not true or false");
        assertDeploymentFails(new String[] {"baton.exclusive.retention=0"}, PeriodOnly.class)
                .hasStackTraceContaining("baton.exclusive.retention");
    }

    @Test
    void aKeyTooLongForItsClaims() {
        String key = "k".repeat(490); // valid as a key, but not with '@' and an epoch millisecond value
        assertDeploymentFails(new String[] {LongKey.class.getName() + "/run/Exclusive/value=" + key}, LongKey.class)
                .hasStackTraceContaining("@Exclusive on " + LongKey.class.getName() + ".run()")
                .hasStackTraceContaining("the keys of its planned-time claims")
                .hasStackTraceContaining("511 chars long, at most 500");
    }

    @Test
    void perMethodOverridesSetTheRetentionAndRetryFailed() throws Exception {
        String prefix = PeriodOnly.class.getName() + "/run/Exclusive/";
        TestConfig.install(prefix + "retention=2h", prefix + "retryFailed=TRUE", prefix + "value=overridden");
        try (WeldContainer container =
                Deployments.weld(Store.class, PeriodOnly.class).initialize()) {
            long before = System.currentTimeMillis();
            container.select(PeriodOnly.class).get().run();
            long bucket = Math.floorDiv(before, 30_000) * 30_000;
            AcquireResult claim = STORE.acquire(Acquisition.of("overridden@" + bucket, "other-instance", 60_000));
            if (claim.isAcquired()) { // the firing fell in the next period: its claim is that one's
                STORE.release("overridden@" + bucket, "other-instance");
                claim = STORE.acquire(Acquisition.of("overridden@" + (bucket + 30_000), "other-instance", 60_000));
            }
            assertThat(claim.isAcquired()).as("the planned time is claimed").isFalse();
            assertThat(claim.remainingLeaseMillis().orElseThrow())
                    .as("kept for the configured retention, 2 h")
                    .isBetween(7_200_000L - 10_000, 7_200_000L);
        } finally {
            TestConfig.uninstall();
        }
        BatonConfig config = BatonConfig.read(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(
                        Map.of(prefix + "retryFailed", "true", "baton.exclusive.retention", "45m"), "test", 500))
                .build());
        java.lang.reflect.Method run = PeriodOnly.class.getMethod("run");
        Exclusive exclusive = run.getAnnotation(Exclusive.class);
        SchedulePlan plan = SchedulePlans.build(PeriodOnly.class, run, exclusive, List.of(exclusive), config);
        assertThat(plan.retryFailed()).isTrue();
        assertThat(plan.retentionMillis()).hasValue(2_700_000);
        SchedulePlan defaults = SchedulePlans.build(
                Valid.class,
                Valid.class.getMethod("plain"),
                Valid.class.getMethod("plain").getAnnotation(Exclusive.class),
                List.of(),
                BatonConfig.read(new SmallRyeConfigBuilder().build()));
        assertThat(defaults.retryFailed()).isFalse();
        assertThat(defaults.retentionMillis()).isEmpty();
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
