package dev.baton.tck.runtime.schedule;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code @Exclusive} on a Jakarta Concurrency 3.1 {@code @Asynchronous(runAt = @Schedule(cron = "*&#47;2 * * * * *"))}
 * method ({@link ConcurrencyScheduledJob}, Jakarta EE 11): the hold comes from the schedule's own next
 * run time ({@code CronTrigger}), as no timer is given to the method.
 */
@Tag(RuntimeTck.TAG_EE11)
class ConcurrencyScheduleTest extends ExclusiveScheduleScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-concurrency-schedule")
                .addClasses(
                        ConcurrencyScheduledJob.class,
                        ConcurrencyScheduleStarter.class,
                        ScheduleLog.class,
                        ScheduleResource.class);
    }

    @Override
    String key() {
        return ConcurrencyScheduledJob.KEY;
    }

    @Test
    @TckRule(id = "R-5.6-03", spec = "spec-runtime-schedule-once")
    @Override
    void firesAndRunsOncePerPlannedTime() {
        super.firesAndRunsOncePerPlannedTime();
    }

    @Test
    @TckRule(id = "R-5.6-04", spec = "spec-runtime-schedule-skip")
    @Override
    void firingsAreSkippedWhileTheKeyIsHeldElsewhere() {
        super.firingsAreSkippedWhileTheKeyIsHeldElsewhere();
    }

    @Test
    @TckRule(id = "R-5.6-06", spec = "spec-runtime-schedule-once")
    @Override
    void aPlannedTimeClaimedElsewhereIsSkipped() {
        super.aPlannedTimeClaimedElsewhereIsSkipped();
    }
}
