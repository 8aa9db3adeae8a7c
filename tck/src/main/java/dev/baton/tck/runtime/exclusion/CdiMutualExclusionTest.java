package dev.baton.tck.runtime.exclusion;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * {@code @Synchronized} on an application-scoped CDI bean method excludes concurrent requests for
 * one key (counted inside the method by the application).
 */
class CdiMutualExclusionTest extends MutualExclusionScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-exclusion-cdi")
                .addClasses(Worker.class, CdiWorker.class, WorkerResource.class);
    }

    @Override
    String kind() {
        return "cdi";
    }

    @Test
    @TckRule(id = "R-4.1-01", spec = "spec-api-synchronized-exclusion")
    @Override
    void concurrentRequestsForOneKeyNeverOverlap() {
        super.concurrentRequestsForOneKeyNeverOverlap();
    }
}
