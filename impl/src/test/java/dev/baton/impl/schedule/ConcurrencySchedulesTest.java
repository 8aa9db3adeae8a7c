package dev.baton.impl.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Exclusive;
import dev.baton.LockConfigurationException;
import dev.baton.impl.config.BatonConfig;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Jakarta Concurrency 3.1 schedules, read reflectively: the interval to the next planned firing comes from
 * the API's own {@code CronTrigger}, a schedule it refuses fails the deployment, and no period is needed.
 *
 * <p>Baton compiles and its tests run against Concurrency 3.0 (Jakarta EE 10); the 3.1 API is loaded here in
 * a class loader of its own, as an EE 11 server would provide it, and the {@code @Schedule}/{@code @Asynchronous}
 * annotations are instances of its types (the server runs of the TCK cover a real EE 11 server).
 */
class ConcurrencySchedulesTest {

    private static URLClassLoader concurrency31;

    @BeforeAll
    static void loadTheApi() throws IOException {
        Path jar = Path.of(System.getProperty(
                "baton.test.concurrencyApi31", "target/ee11-api/jakarta.enterprise.concurrent-api.jar"));
        assertThat(jar).as("the Concurrency 3.1 API jar (copied by the build)").isRegularFile();
        URL[] urls = {jar.toUri().toURL()};
        concurrency31 = new URLClassLoader(urls, ConcurrencySchedulesTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!name.startsWith("jakarta.enterprise.concurrent.")) {
                    return super.loadClass(name, resolve);
                }
                synchronized (getClassLoadingLock(name)) { // child first: the test class path has 3.0
                    Class<?> loaded = findLoadedClass(name);
                    return loaded != null ? loaded : findClass(name);
                }
            }
        };
    }

    @AfterAll
    static void close() throws IOException {
        concurrency31.close();
    }

    /** An instance of a Concurrency 3.1 annotation type: the members given, the others at their defaults. */
    private static Annotation annotation(String type, Map<String, Object> members) throws ClassNotFoundException {
        Class<?> annotationType = Class.forName("jakarta.enterprise.concurrent." + type, true, concurrency31);
        assertThat(annotationType.getClassLoader())
                .as("the 3.1 API, not the test class path's 3.0")
                .isSameAs(concurrency31);
        return (Annotation) Proxy.newProxyInstance(
                concurrency31, new Class<?>[] {annotationType}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "annotationType":
                            return annotationType;
                        case "toString":
                            return "@" + type + members;
                        case "hashCode":
                            return members.hashCode();
                        case "equals":
                            return proxy == args[0];
                        default:
                            return members.containsKey(method.getName())
                                    ? members.get(method.getName())
                                    : method.getDefaultValue();
                    }
                });
    }

    private static Annotation schedule(Map<String, Object> members) throws ClassNotFoundException {
        return annotation("Schedule", members);
    }

    private static Annotation asynchronous(Annotation... schedules) throws ClassNotFoundException {
        Class<?> scheduleType = schedules[0].annotationType();
        Object runAt = Array.newInstance(scheduleType, schedules.length);
        for (int i = 0; i < schedules.length; i++) {
            Array.set(runAt, i, schedules[i]);
        }
        return annotation("Asynchronous", Map.of("runAt", runAt));
    }

    private static int[] ints(int... values) {
        return values;
    }

    @Test
    void aCronScheduleGivesTheIntervalToItsNextPlannedFiring() throws Exception {
        Annotation everyTwoSeconds = schedule(Map.of("cron", "*/2 * * * * *", "zone", "UTC"));
        List<Annotation> schedules = ConcurrencySchedules.schedules(List.of(asynchronous(everyTwoSeconds)));
        assertThat(schedules).containsExactly(everyTwoSeconds);

        ScheduleCalendar calendar = ConcurrencySchedules.calendar(schedules);
        assertThat(calendar.intervalMillis(Instant.parse("2026-12-01T10:00:00.010Z")))
                .isEqualTo(1_990);
        assertThat(calendar.intervalMillis(Instant.parse("2026-12-01T10:00:01.500Z")))
                .isEqualTo(500);
        // a firing exactly on its planned time: the next one, not itself
        assertThat(calendar.intervalMillis(Instant.parse("2026-12-01T10:00:00Z")))
                .isEqualTo(2_000);
    }

    @Test
    void fieldsWithoutCronAndTheEarliestOfSeveralSchedules() throws Exception {
        Annotation dailyAtHalfPastThree = schedule(Map.of("hours", ints(3), "minutes", ints(30), "zone", "UTC"));
        Annotation hourlyAtQuarterPast = schedule(Map.of(
                "hours",
                ints(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23),
                "minutes",
                ints(15),
                "zone",
                "UTC"));
        Instant firedAt = Instant.parse("2026-12-01T03:30:00.200Z");

        assertThat(ConcurrencySchedules.calendar(List.of(dailyAtHalfPastThree)).intervalMillis(firedAt))
                .as("seconds default to {0}, days to every day: the next day at 03:30:00")
                .isEqualTo(24 * 3_600_000L - 200);
        assertThat(ConcurrencySchedules.calendar(List.of(dailyAtHalfPastThree, hourlyAtQuarterPast))
                        .intervalMillis(firedAt))
                .as("the earliest of the two: 04:15:00")
                .isEqualTo(45 * 60_000L - 200);
    }

    @Test
    void aScheduleTheApiRefusesFailsTheDeploymentNamingIt() throws Exception {
        Annotation broken = schedule(Map.of("cron", "every two seconds please"));

        assertThatThrownBy(() -> ConcurrencySchedules.calendar(List.of(broken)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("Jakarta Concurrency refuses")
                .hasMessageContaining("every two seconds please");
    }

    public static class Reports {
        @Exclusive
        public java.util.concurrent.CompletableFuture<Void> nightly() {
            return null;
        }
    }

    @Test
    void aConcurrencyScheduleNeedsNoPeriodAndIsNamedByItsNextRunTime() throws Exception {
        Method method = Reports.class.getMethod("nightly");
        Exclusive exclusive = method.getAnnotation(Exclusive.class);
        Annotation runAt = asynchronous(schedule(Map.of("cron", "*/10 * * * * *", "zone", "UTC")));
        BatonConfig config = BatonConfig.read(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(Map.of(), "test", 500))
                .build());

        SchedulePlan plan = SchedulePlans.build(Reports.class, method, exclusive, List.of(exclusive, runAt), config);

        assertThat(plan.periodMillis()).isEmpty();
        assertThat(plan.calendar()).isPresent();
        long interval = plan.intervalMillis(null, Instant.parse("2026-12-01T10:00:00.100Z"));
        assertThat(interval).isEqualTo(9_900);
        assertThat(plan.holdFor(interval)).as("no hold set: none").isZero();
        assertThat(plan.plannedTime(null, Instant.parse("2026-12-01T10:00:00.100Z")))
                .as("the next run time names the firing before it")
                .contains(new PlannedTime(Instant.parse("2026-12-01T10:00:10Z").toEpochMilli(), 9_900));
        assertThat(plan.plannedTime(null, Instant.parse("2026-12-01T10:00:03.700Z")))
                .as("another instance's firing of it, late")
                .map(PlannedTime::identityMillis)
                .contains(Instant.parse("2026-12-01T10:00:10Z").toEpochMilli());
        assertThat(plan.retentionFor(plan.plannedTime(null, Instant.parse("2026-12-01T10:00:00.100Z"))
                        .orElseThrow()))
                .as("3 intervals are less than the least default")
                .isEqualTo(60_000);
    }

    @Test
    void aConcurrencyScheduleTheApiRefusesFailsTheDeploymentWithClassAndMethod() throws Exception {
        Method method = Reports.class.getMethod("nightly");
        Exclusive exclusive = method.getAnnotation(Exclusive.class);
        Annotation runAt = asynchronous(schedule(Map.of("cron", "61 * * * * *")));
        BatonConfig config = BatonConfig.read(new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(Map.of(), "test", 500))
                .build());

        assertThatThrownBy(
                        () -> SchedulePlans.build(Reports.class, method, exclusive, List.of(exclusive, runAt), config))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageStartingWith(
                        "@Exclusive on " + Reports.class.getName() + ".nightly(): Jakarta Concurrency refuses")
                .hasMessageContaining("61 * * * * *");
    }

    @Test
    void concurrency30sAsynchronousHasNoSchedule() throws Exception {
        Class<? extends Annotation> asynchronous30 =
                Class.forName(ConcurrencySchedules.ASYNCHRONOUS).asSubclass(Annotation.class);
        assertThat(asynchronous30.getClassLoader()).isNotSameAs(concurrency31);
        Annotation plain = (Annotation) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {asynchronous30},
                (proxy, m, args) -> m.getName().equals("annotationType") ? asynchronous30 : m.getDefaultValue());

        assertThat(ConcurrencySchedules.schedules(List.of(plain))).isEmpty();
    }
}
