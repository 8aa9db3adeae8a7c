package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Exclusive;
import dev.baton.LockConfigurationException;
import dev.baton.impl.config.BatonConfig;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * {@code @Exclusive} on Quarkus's {@code @Scheduled}, read by name as on Quarkus (the API's real annotations, on
 * real methods): {@code every} names a firing by its epoch-aligned period, {@code cron} by its next firing, computed
 * by the cron-utils the scheduler brings; neither needs a period. Values naming configuration properties, schedules
 * turned off, the scheduler's parameter, and every way the deployment must fail, naming what is wrong.
 */
class QuarkusSchedulesTest {

    @SuppressWarnings("unused")
    public static class Jobs {
        @Exclusive
        @Scheduled(every = "2s")
        public void everyTwoSeconds() {}

        @Exclusive
        @Scheduled(cron = "0/10 * * * * ?", timeZone = "UTC")
        public void everyTenSecondsByCron(ScheduledExecution execution) {}

        @Exclusive
        @Scheduled(cron = "0/5 * * * *", timeZone = "UTC")
        public void unixEveryFiveMinutes() {}

        @Exclusive
        @Scheduled(every = "{jobs.sweep.every}")
        public void everyConfigured() {}

        @Exclusive
        @Scheduled(every = "${jobs.missing.every:1m}")
        public void everyWithDefault() {}

        @Exclusive
        @Scheduled(every = "${jobs.missing.every}")
        public void everyMissing() {}

        @Exclusive
        @Scheduled(every = "off")
        public void turnedOff() {}

        @Exclusive(period = "30s")
        @Scheduled(every = "2s")
        public void periodGiven() {}

        @Exclusive
        @Scheduled(every = "500ms")
        @Scheduled(every = "3s")
        public void twoSchedules() {}

        @Exclusive
        @Scheduled(every = "soon")
        public void notADuration() {}

        @Exclusive
        @Scheduled(cron = "every ten seconds please")
        public void notACron() {}

        @Exclusive
        @Scheduled(every = "2s")
        public CompletionStage<Void> async() {
            return null;
        }

        @Exclusive
        @Scheduled(every = "2s")
        public void wrongParameter(String what) {}
    }

    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");

    private static SchedulePlan plan(String name, Map<String, String> properties) throws Exception {
        Method method = find(name);
        BatonConfig config = BatonConfig.read(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build());
        return SchedulePlans.build(
                Jobs.class, method, method.getAnnotation(Exclusive.class), List.of(method.getAnnotations()), config);
    }

    private static Method find(String name) {
        for (Method method : Jobs.class.getMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new AssertionError("no method " + name);
    }

    private static long at(long plusMillis) {
        return AT.toEpochMilli() + plusMillis;
    }

    @Test
    void everyNamesAFiringByItsPeriodAlignedOnTheEpoch() throws Exception {
        SchedulePlan plan = plan("everyTwoSeconds", Map.of());

        assertThat(plan.periodMillis()).hasValue(2_000);
        // two instances started at different moments fire 2 s apart each, at different offsets: one name per period
        assertThat(plan.plannedTime(null, AT.plusMillis(300))).contains(new PlannedTime(at(0), 2_000));
        assertThat(plan.plannedTime(null, AT.plusMillis(1_900))).contains(new PlannedTime(at(0), 2_000));
        assertThat(plan.plannedTime(null, AT.plusMillis(2_100))).contains(new PlannedTime(at(2_000), 2_000));
    }

    @Test
    void cronNamesAFiringByItsNextFiringAndTakesTheSchedulersParameter() throws Exception {
        SchedulePlan plan = plan("everyTenSecondsByCron", Map.of());

        assertThat(plan.periodMillis()).isEmpty();
        assertThat(plan.calendar()).isPresent();
        assertThat(plan.plannedTime(null, AT.plusMillis(100)))
                .as("the next firing names the one before it")
                .contains(new PlannedTime(at(10_000), 9_900));
        assertThat(plan.plannedTime(null, AT.plusMillis(3_700)))
                .as("another instance's firing of it, late")
                .map(PlannedTime::identityMillis)
                .contains(at(10_000));
        assertThat(plan.plannedTime(null, AT))
                .as("a firing exactly on its planned time: the next one, not itself")
                .map(PlannedTime::identityMillis)
                .contains(at(10_000));
        assertThat(plan.retentionFor(plan.plannedTime(null, AT).orElseThrow()))
                .as("3 intervals are less than the least default")
                .isEqualTo(SchedulePlan.MIN_DEFAULT_RETENTION_MILLIS);
    }

    @Test
    void cronIsReadInTheSyntaxQuarkusIsConfiguredFor() throws Exception {
        assertThatThrownBy(() -> plan("unixEveryFiveMinutes", Map.of()))
                .as("five fields are not Quartz syntax, Quarkus's default")
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("0/5 * * * *")
                .hasMessageContaining("quartz");

        SchedulePlan plan = plan("unixEveryFiveMinutes", Map.of(QuarkusSchedules.CRON_TYPE, "unix"));
        assertThat(plan.plannedTime(null, AT.plusMillis(61_000)))
                .map(PlannedTime::identityMillis)
                .contains(at(300_000));
    }

    @Test
    void valuesMayNameConfigurationProperties() throws Exception {
        assertThat(plan("everyConfigured", Map.of("jobs.sweep.every", "PT15S")).periodMillis())
                .hasValue(15_000);
        assertThat(plan("everyWithDefault", Map.of()).periodMillis())
                .as("the default after the colon")
                .hasValue(60_000);
        assertThatThrownBy(() -> plan("everyMissing", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("everyMissing")
                .hasMessageContaining("names the property jobs.missing.every, which is not set");
    }

    @Test
    void aScheduleTurnedOffNeedsNoPeriodAndNamesNoFiring() throws Exception {
        SchedulePlan plan = plan("turnedOff", Map.of());

        assertThat(plan.periodMillis()).isEmpty();
        assertThat(plan.calendar()).isEmpty();
        assertThat(plan.plannedTime(null, AT))
                .as("a direct call: the run lock only")
                .isEmpty();
        assertThat(plan("everyConfigured", Map.of("jobs.sweep.every", "disabled"))
                        .periodMillis())
                .isEmpty();
    }

    @Test
    void aPeriodGivenToExclusiveComesFirst() throws Exception {
        assertThat(plan("periodGiven", Map.of()).periodMillis()).hasValue(30_000);
    }

    @Test
    void whatCannotBeNamedFailsTheDeploymentSayingWhy() {
        assertThatThrownBy(() -> plan("twoSchedules", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("twoSchedules()")
                .hasMessageContaining("2 @Scheduled");
        assertThatThrownBy(() -> plan("notADuration", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("@Scheduled(every = \"soon\") is not a duration");
        assertThatThrownBy(() -> plan("notACron", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("every ten seconds please")
                .hasMessageContaining("is not valid quartz syntax");
        assertThatThrownBy(() -> plan("async", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("it must return void");
        assertThatThrownBy(() -> plan("wrongParameter", Map.of()))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("java.lang.String")
                .hasMessageContaining(ScheduledExecution.class.getName());
    }

    @Test
    void withoutCronUtilsACronScheduleAsksForAPeriod() throws Exception {
        // a loader that sees the JDK only, as a server without the scheduler's library would
        try (URLClassLoader bare = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> CronCalendar.of("0/10 * * * * ?", "quartz", ZoneOffset.UTC, bare, "the job"))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("cron-utils")
                    .hasMessageContaining("set a period");
        }
    }
}
