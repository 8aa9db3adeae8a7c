package dev.baton.impl.leadership;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.Locks;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/** What the deployment checks of {@code @Leader} methods, and what it plans for them. */
class LeaderDeploymentTest {

    private static final String[] NO_CONFIG = {};

    @ApplicationScoped
    public static class PrimitiveResult {
        @Leader("counter")
        public long count() {
            return 1;
        }
    }

    @ApplicationScoped
    @Leader
    public static class WholeClass {
        public String first() {
            return "first";
        }

        public Integer second() {
            return 2;
        }
    }

    @Test
    void aPrimitiveResultFailsTheDeployment() {
        assertDeploymentFails(NO_CONFIG, PrimitiveResult.class)
                .hasStackTraceContaining("@Leader on " + PrimitiveResult.class.getName() + ".count()")
                .hasStackTraceContaining("returns long")
                .hasStackTraceContaining("return Long or void");
    }

    @Test
    void onAClassEachMethodRunsInTheLeaderOfTheElectionNamedAfterTheClass() {
        TestConfig.install();
        try (WeldContainer container = Deployments.weld(WholeClass.class).initialize()) {
            WholeClass bean = container.select(WholeClass.class).get();
            Leadership leadership = container.select(Locks.class).get().lead(WholeClass.class.getName());
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(leadership::isLeader);
            assertThat(bean.first()).isEqualTo("first");
            assertThat(bean.second()).isEqualTo(2);
            leadership.stepDown(Duration.ofMinutes(1));
            assertThat(bean.first())
                    .as("skipped once this instance no longer leads")
                    .isNull();
            assertThat(bean.second()).isNull();
        } finally {
            TestConfig.uninstall();
        }
    }
}
