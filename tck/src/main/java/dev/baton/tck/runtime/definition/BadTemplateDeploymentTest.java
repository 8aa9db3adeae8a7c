package dev.baton.tck.runtime.definition;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code @Synchronized} template naming no parameter fails the deployment (the extension validates every
 * annotated method at startup instead of failing at the first call). The archive is
 * {@link GoodTemplateDeploymentTest}'s, which deploys, plus {@link BadTemplateBean}.
 *
 * <p>The test deploys it itself ({@code managed = false} and Arquillian's {@link Deployer}) rather than
 * with {@code @ShouldThrowException}: that takes one exception type, and Arquillian matches it below its
 * own {@code DeploymentException}, while adapters report the failure as different types (see
 * {@link DeploymentFailure}). The test pins the accepted types and, when the adapter passes the server's
 * message on, that the message is Baton's. Arquillian undeploys what is left of the failed deployment
 * after the class.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class BadTemplateDeploymentTest {

    static final String BAD = "baton-tck-bad-template";

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = BAD, managed = false, testable = false)
    static WebArchive deployment() {
        return GoodTemplateDeploymentTest.archive(BAD).addClasses(BadTemplateBean.class);
    }

    @Test
    @TckRule(id = "R-4.1-06", spec = "spec-api-template-validated")
    void aTemplateNamingNoParameterFailsTheDeployment() {
        Throwable failure = null;
        try {
            deployer.deploy(BAD);
        } catch (Throwable t) { // what the adapter threw, passed on unchanged by Arquillian
            failure = t;
        }
        if (failure == null) {
            deployer.undeploy(BAD);
        }
        boolean detailed = DeploymentFailure.check(failure, BadTemplateBean.class, "ship", BadTemplateBean.PLACEHOLDER);
        if (!detailed) {
            System.out.println("[baton-tck] " + BAD + " failed as "
                    + failure.getClass().getName()
                    + " without the server's message (the adapter keeps it in the server's output); "
                    + "GoodTemplateDeploymentTest shows the bad bean is the only difference: " + failure.getMessage());
        }
    }
}
