package dev.baton.tck.runtime.schedule;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code @Exclusive} on an EJB {@code @Schedule(second = "*&#47;2", persistent = false)} method of a
 * stateless bean ({@link ScheduledJob}), whose runs take their planned time from the timer.
 */
@Tag(RuntimeTck.TAG_EJB)
class ExclusiveScheduleTest extends ExclusiveScheduleScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-schedule")
                .addClasses(ScheduledJob.class, ScheduleLog.class, ScheduleResource.class);
    }

    @Override
    String key() {
        return ScheduledJob.KEY;
    }

    @Test
    @TckRule(id = "R-5.6-01", spec = "spec-runtime-schedule-once")
    @Override
    void firesAndRunsOncePerPlannedTime() {
        super.firesAndRunsOncePerPlannedTime();
    }

    @Test
    @TckRule(id = "R-5.6-02", spec = "spec-runtime-schedule-skip")
    @Override
    void firingsAreSkippedWhileTheKeyIsHeldElsewhere() {
        super.firingsAreSkippedWhileTheKeyIsHeldElsewhere();
    }

    @Test
    @TckRule(id = "R-5.6-05", spec = "spec-runtime-schedule-once")
    @Override
    void aPlannedTimeClaimedElsewhereIsSkipped() {
        super.aPlannedTimeClaimedElsewhereIsSkipped();
    }
}
