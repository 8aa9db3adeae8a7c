package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Synchronized;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.CDI;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/** Where a method's poll policy comes from: its manager's keys, then its annotation, then its overrides. */
@BatonTest
@AddBeanClasses({PollSettingsTest.Reports.class, PollSettingsTest.Billing.class})
@WithConfig({
    "baton.poll-jitter=0.2",
    "baton.managers=fast",
    "baton.fast.poll-min-interval=1ms",
    "baton.fast.poll-max-interval=20ms",
    "dev.baton.impl.cdi.PollSettingsTest$Reports/weekly/Synchronized/pollJitter=0",
    "dev.baton.impl.cdi.PollSettingsTest$Billing/Synchronized/pollMaxInterval=2s"
})
class PollSettingsTest {

    @ApplicationScoped
    public static class Reports {
        @Synchronized(value = "daily", manager = "fast")
        public void daily() {}

        @Synchronized(value = "weekly", manager = "fast", pollMaxInterval = "8ms", pollJitter = "1")
        public void weekly() {}
    }

    @ApplicationScoped
    public static class Billing {
        @Synchronized("charge")
        public void charge() {}

        @Synchronized(value = "refund", pollMinInterval = "50ms", pollMaxInterval = "100ms")
        public void refund() {}
    }

    private PollPolicy poll(Class<?> bean, String method) throws NoSuchMethodException {
        return runtime().plan(bean, bean.getMethod(method)).poll();
    }

    /** Looked up, not injected: the test class's own injection points would make Weld add the bean twice. */
    private static LockRuntime runtime() {
        return CDI.current().select(LockRuntime.class).get();
    }

    @Test
    void theManagersPolicyAppliesToItsMethods() throws Exception {
        assertThat(runtime().engine("").settings().poll()).isEqualTo(new PollPolicy(5, 500, 0.2));
        assertThat(runtime().engine("fast").settings().poll()).isEqualTo(new PollPolicy(1, 20, 0.2));
        assertThat(poll(Reports.class, "daily")).isEqualTo(new PollPolicy(1, 20, 0.2));
    }

    @Test
    void theAnnotationOverridesTheManagerAndTheConfigurationOverridesTheAnnotation() throws Exception {
        // pollMaxInterval from the annotation; pollJitter = "1" replaced by the method's configured 0.
        assertThat(poll(Reports.class, "weekly")).isEqualTo(new PollPolicy(1, 8, 0));
    }

    @Test
    void aClassOverrideAppliesToEveryMethodOfTheClass() throws Exception {
        assertThat(poll(Billing.class, "charge")).isEqualTo(new PollPolicy(5, 2_000, 0.2));
        assertThat(poll(Billing.class, "refund")).isEqualTo(new PollPolicy(50, 2_000, 0.2));
    }
}
