package dev.baton.tck.runtime.exclusion;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * {@code @Synchronized(resolver = ...)} takes its key from a resolver bean of the application (a
 * library's interceptor must see the application's beans) and excludes concurrent requests for it.
 */
class ResolverMutualExclusionTest extends MutualExclusionScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-exclusion-resolver")
                .addClasses(Worker.class, ResolverWorker.class, WorkKeys.class, WorkerResource.class);
    }

    @Override
    String kind() {
        return "resolved";
    }

    @Test
    @TckRule(id = "R-4.1-04", spec = "spec-api-synchronized-exclusion")
    @Override
    void concurrentRequestsForOneKeyNeverOverlap() {
        super.concurrentRequestsForOneKeyNeverOverlap();
    }
}
