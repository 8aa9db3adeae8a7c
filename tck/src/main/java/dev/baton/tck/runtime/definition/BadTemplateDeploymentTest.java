package dev.baton.tck.runtime.definition;

import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.ShouldThrowException;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A deployment with a template naming no parameter fails to deploy (the extension validates every
 * annotated method at startup instead of failing on the first call). Which exception type the
 * deployment failure arrives as depends on the adapter, so any is accepted.
 */
@ExtendWith(ArquillianExtension.class)
class BadTemplateDeploymentTest {

    @Deployment(testable = false)
    @ShouldThrowException
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-bad-template").addClasses(BadTemplateBean.class);
    }

    @Test
    void theDeploymentFails() {
        // the assertion is @ShouldThrowException
    }
}
