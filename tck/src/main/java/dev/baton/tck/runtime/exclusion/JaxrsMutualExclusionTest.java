package dev.baton.tck.runtime.exclusion;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * {@code @Synchronized} on a JAX-RS resource method excludes concurrent requests for one key.
 */
class JaxrsMutualExclusionTest extends MutualExclusionScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-exclusion-jaxrs").addClasses(JaxrsWorkerResource.class);
    }

    @Override
    String kind() {
        return "jaxrs";
    }

    @Test
    @TckRule(id = "R-4.1-03", spec = "spec-api-synchronized-exclusion")
    @Override
    void concurrentRequestsForOneKeyNeverOverlap() {
        super.concurrentRequestsForOneKeyNeverOverlap();
    }
}
