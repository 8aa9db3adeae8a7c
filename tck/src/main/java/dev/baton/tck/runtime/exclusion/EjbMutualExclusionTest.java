package dev.baton.tck.runtime.exclusion;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code @Synchronized} on a stateless EJB method excludes concurrent requests for one key, although
 * the container runs them on different bean instances.
 */
@Tag(RuntimeTck.TAG_EJB)
class EjbMutualExclusionTest extends MutualExclusionScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-exclusion-ejb")
                .addClasses(Worker.class, EjbWorker.class, WorkerResource.class);
    }

    @Override
    String kind() {
        return "ejb";
    }

    @Test
    @TckRule(id = "R-4.1-02", spec = "spec-api-synchronized-exclusion")
    @Override
    void concurrentRequestsForOneKeyNeverOverlap() {
        super.concurrentRequestsForOneKeyNeverOverlap();
    }
}
