package dev.baton.impl.cdi;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;

import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;

/**
 * Every bad poll setting, in the configuration or on a method, fails the deployment naming the key (or the
 * class and method) and the value.
 */
class PollDeploymentTest {

    private static final String[] NO_CONFIG = {};

    @ApplicationScoped
    public static class Fine {
        @Synchronized("fine")
        public void pay() {}
    }

    @ApplicationScoped
    public static class ZeroMin {
        @Synchronized(value = "x", pollMinInterval = "0ms")
        public void pay() {}
    }

    @ApplicationScoped
    public static class NegativeMax {
        @Synchronized(value = "x", pollMaxInterval = "-5ms")
        public void pay() {}
    }

    @ApplicationScoped
    public static class UnparsableMax {
        @Synchronized(value = "x", pollMaxInterval = "briskly")
        public void pay() {}
    }

    @ApplicationScoped
    public static class JitterAboveOne {
        @Synchronized(value = "x", pollJitter = "1.5")
        public void pay() {}
    }

    @ApplicationScoped
    public static class JitterNoNumber {
        @Synchronized(value = "x", pollJitter = "some")
        public void pay() {}
    }

    @ApplicationScoped
    public static class MinAboveMax {
        @Synchronized(value = "x", pollMinInterval = "100ms", pollMaxInterval = "10ms")
        public void pay() {}
    }

    @ApplicationScoped
    public static class MaxBelowTheManagersMin {
        @Synchronized(value = "x", pollMaxInterval = "2ms")
        public void pay() {}
    }

    @Test
    void aZeroMinimumOnAMethod() {
        assertDeploymentFails(NO_CONFIG, ZeroMin.class)
                .hasStackTraceContaining("@Synchronized on " + ZeroMin.class.getName() + ".pay()")
                .hasStackTraceContaining("'0ms' for pollMinInterval")
                .hasStackTraceContaining("must be at least 1 ms");
    }

    @Test
    void aNegativeMaximumOnAMethod() {
        assertDeploymentFails(NO_CONFIG, NegativeMax.class)
                .hasStackTraceContaining(NegativeMax.class.getName() + ".pay()")
                .hasStackTraceContaining("'-5ms' for pollMaxInterval");
    }

    @Test
    void anUnparsableMaximumOnAMethod() {
        assertDeploymentFails(NO_CONFIG, UnparsableMax.class)
                .hasStackTraceContaining(UnparsableMax.class.getName() + ".pay()")
                .hasStackTraceContaining("'briskly' for pollMaxInterval")
                .hasStackTraceContaining("not a duration");
    }

    @Test
    void aJitterOutOfRangeOnAMethod() {
        assertDeploymentFails(NO_CONFIG, JitterAboveOne.class)
                .hasStackTraceContaining(JitterAboveOne.class.getName() + ".pay()")
                .hasStackTraceContaining("'1.5' for pollJitter")
                .hasStackTraceContaining("from 0 to 1");
        assertDeploymentFails(NO_CONFIG, JitterNoNumber.class)
                .hasStackTraceContaining(JitterNoNumber.class.getName() + ".pay()")
                .hasStackTraceContaining("'some' for pollJitter")
                .hasStackTraceContaining("not a decimal fraction");
    }

    @Test
    void aMinimumAboveTheMaximumOnAMethod() {
        assertDeploymentFails(NO_CONFIG, MinAboveMax.class)
                .hasStackTraceContaining(MinAboveMax.class.getName() + ".pay()")
                .hasStackTraceContaining(
                        "the maximum poll interval 10 ms (pollMaxInterval = \"10ms\") is shorter than the"
                                + " minimum 100 ms (pollMinInterval = \"100ms\")");
    }

    @Test
    void aMaximumBelowTheManagersMinimumSaysWhatToSet() {
        assertDeploymentFails(NO_CONFIG, MaxBelowTheManagersMin.class)
                .hasStackTraceContaining(MaxBelowTheManagersMin.class.getName() + ".pay()")
                .hasStackTraceContaining(
                        "the maximum poll interval 2 ms (pollMaxInterval = \"2ms\") is shorter than the"
                                + " minimum 5 ms (inherited; set pollMinInterval too)");
    }

    @Test
    void aBadOverrideInTheConfigurationNamesItsKey() {
        String key = Fine.class.getName() + "/pay/Synchronized/pollJitter";
        assertDeploymentFails(new String[] {key + "=2"}, Fine.class)
                .hasStackTraceContaining(Fine.class.getName() + ".pay()")
                .hasStackTraceContaining("'2' for " + key);
        String classKey = Fine.class.getName() + "/Synchronized/pollMinInterval";
        assertDeploymentFails(new String[] {classKey + "=1s"}, Fine.class)
                .hasStackTraceContaining(Fine.class.getName() + ".pay()")
                .hasStackTraceContaining(
                        "the maximum poll interval 500 ms (inherited; set pollMaxInterval too) is shorter than"
                                + " the minimum 1000 ms (" + classKey + ")");
    }

    @Test
    void badPollKeysOfAManager() {
        assertDeploymentFails(new String[] {"baton.poll-max-interval=0"}, Fine.class)
                .hasStackTraceContaining("baton.poll-max-interval")
                .hasStackTraceContaining("'0'");
        assertDeploymentFails(
                        new String[] {"baton.managers=reports", "baton.reports.poll-min-interval=PT1S"}, Fine.class)
                .hasStackTraceContaining(
                        "the maximum poll interval 500 ms (inherited; set baton.reports.poll-max-interval too)"
                                + " is shorter than the minimum 1000 ms (baton.reports.poll-min-interval)");
        assertDeploymentFails(new String[] {"baton.managers=reports", "baton.reports.poll-jitter=-1"}, Fine.class)
                .hasStackTraceContaining("baton.reports.poll-jitter")
                .hasStackTraceContaining("'-1'");
        assertDeploymentFails(new String[] {"baton.poll-min-interval=5x"}, Fine.class)
                .hasStackTraceContaining("baton.poll-min-interval")
                .hasStackTraceContaining("'5x'");
    }
}
