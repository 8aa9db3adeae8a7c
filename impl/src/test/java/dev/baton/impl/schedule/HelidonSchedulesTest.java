package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Exclusive;
import dev.baton.LockConfigurationException;
import dev.baton.impl.config.BatonConfig;
import io.helidon.microprofile.scheduling.FixedRate;
import io.helidon.microprofile.scheduling.Scheduled;
import io.helidon.scheduling.FixedRateInvocation;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.lang.reflect.Method;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code @Exclusive} on Helidon MP's own scheduling, read by name: {@code @FixedRate} names a firing by its period
 * aligned on the epoch, {@code @Scheduled} (cron) by its next firing, with Helidon's configuration overrides and
 * placeholders. The annotations here carry Helidon's names and the members Baton reads (Helidon's classes need JDK
 * 21, these tests run on 17); the Helidon pair test runs the real ones on Helidon MP.
 */
class HelidonSchedulesTest {

    @SuppressWarnings("unused")
    public static class Jobs {
        @Exclusive
        @FixedRate(value = 2)
        public void everyTwoSeconds() {}

        @Exclusive
        @FixedRate(value = 500, timeUnit = TimeUnit.MILLISECONDS)
        public void everyHalfSecond(FixedRateInvocation invocation) {}

        @Exclusive
        @Scheduled("0/10 * * * * ?")
        public void everyTenSecondsByCron() {}

        @Exclusive
        @Scheduled("0/${jobs.step} * * * * ?")
        public void placeholder() {}

        @Exclusive
        @FixedRate(value = 2)
        @Scheduled("0/10 * * * * ?")
        public void both() {}

        @Exclusive
        @FixedRate(value = 0)
        public void never() {}

        @Exclusive
        @Scheduled("every ten seconds please")
        public void notACron() {}

        @Exclusive
        @FixedRate(value = 2)
        public void wrongParameter(String what) {}
    }

    private static SchedulePlan plan(String name, Map<String, String> properties) {
        Method method = null;
        for (Method candidate : Jobs.class.getMethods()) {
            if (candidate.getName().equals(name)) {
                method = candidate;
            }
        }
        assertThat(method).as(name).isNotNull();
        BatonConfig config = BatonConfig.read(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build());
        return SchedulePlans.build(
                Jobs.class, method, method.getAnnotation(Exclusive.class), List.of(method.getAnnotations()), config);
    }

    private static String key(String method, String setting) {
        return Jobs.class.getName() + "." + method + ".schedule." + setting;
    }

    @Test
    void aFixedRateNamesAFiringByItsPeriodAndTakesHelidonsInvocation() {
        assertThat(plan("everyTwoSeconds", Map.of()).periodMillis()).hasValue(2_000);
        SchedulePlan plan = plan("everyHalfSecond", Map.of());
        assertThat(plan.periodMillis()).hasValue(500);
        assertThat(plan.plannedTime(null, Instant.ofEpochMilli(1_000_250))).contains(new PlannedTime(1_000_000, 500));
    }

    @Test
    void helidonsConfigurationComesFirst() {
        assertThat(plan("everyTwoSeconds", Map.of(key("everyTwoSeconds", "delay"), "3"))
                        .periodMillis())
                .hasValue(3_000);
        assertThat(plan(
                                "everyTwoSeconds",
                                Map.of(
                                        key("everyTwoSeconds", "delay"),
                                        "1",
                                        key("everyTwoSeconds", "time-unit"),
                                        "MINUTES"))
                        .periodMillis())
                .hasValue(60_000);
        SchedulePlan cron =
                plan("everyTenSecondsByCron", Map.of(key("everyTenSecondsByCron", "expression"), "0 0/5 * * * ?"));
        assertThat(intervalAfterAnHour(cron)).as("every 5 minutes").isEqualTo(300_000);
        assertThatThrownBy(() -> plan("everyTwoSeconds", Map.of(key("everyTwoSeconds", "time-unit"), "fortnights")))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("everyTwoSeconds.schedule.time-unit='fortnights' is not a time unit");
    }

    @Test
    void aCronScheduleNamesAFiringByItsNextFiringWithPlaceholdersResolved() {
        SchedulePlan plan = plan("everyTenSecondsByCron", Map.of());
        assertThat(plan.periodMillis()).isEmpty();
        assertThat(intervalAfterAnHour(plan)).isEqualTo(10_000);

        assertThat(intervalAfterAnHour(plan("placeholder", Map.of("jobs.step", "20"))))
                .isEqualTo(20_000);
        assertThatThrownBy(() -> plan("placeholder", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("names the property jobs.step, which is not set");
    }

    @Test
    void whatHelidonWouldRefuseFailsTheDeploymentSayingWhy() {
        assertThatThrownBy(() -> plan("both", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("both()")
                .hasMessageContaining("both @FixedRate and @Scheduled");
        assertThatThrownBy(() -> plan("never", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("is not a positive period");
        assertThatThrownBy(() -> plan("notACron", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("every ten seconds please");
        assertThatThrownBy(() -> plan("wrongParameter", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("java.lang.String")
                .hasMessageContaining("io.helidon.scheduling.Invocation");
    }

    /** The interval from a firing exactly on the hour (system zone, as Helidon fires) to the next planned one. */
    private static long intervalAfterAnHour(SchedulePlan plan) {
        Instant onTheHour = ZonedDateTime.of(2026, 12, 1, 10, 0, 0, 0, ZoneId.systemDefault())
                .toInstant();
        return plan.plannedTime(null, onTheHour).orElseThrow().intervalMillis();
    }
}
