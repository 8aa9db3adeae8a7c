package dev.baton.tck.runtime.definition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code @Synchronized} template naming no parameter fails the deployment (the extension validates every
 * annotated method at startup instead of failing at the first call), and nothing else about the archive
 * does: the same archive without the bad bean ({@value #CONTROL}, deployed by Arquillian) deploys and its
 * lock works, so the bad bean is why {@value #BAD} fails.
 *
 * <p>{@value #BAD} is deployed by the test ({@code managed = false} and Arquillian's {@link Deployer})
 * rather than with {@code @ShouldThrowException}: that takes one exception type, and Arquillian matches it
 * below its own {@code DeploymentException}, while adapters report the failure as different types (see
 * {@link DeploymentFailure}). The test pins the accepted types and, when the adapter passes the server's
 * message on, that the message is Baton's.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class BadTemplateDeploymentTest {

    static final String CONTROL = "baton-tck-bad-template-control";
    static final String BAD = "baton-tck-bad-template";

    @ArquillianResource
    Deployer deployer;

    @ArquillianResource
    @OperateOnDeployment(CONTROL)
    URL control;

    /** The application without the bad bean: a resource calling a {@code @Synchronized} method. */
    static WebArchive archive(String name) {
        return RuntimeTck.scenario(name).addClasses(ShippingBean.class, ShippingResource.class);
    }

    @Deployment(name = CONTROL, testable = false)
    static WebArchive control() {
        return archive(CONTROL);
    }

    @Deployment(name = BAD, managed = false, testable = false)
    static WebArchive bad() {
        return archive(BAD).addClasses(BadTemplateBean.class);
    }

    @Test
    @TckRule(id = "R-4.1-05", spec = "§4.1")
    @OperateOnDeployment(CONTROL)
    void theArchiveWithoutTheBadBeanDeploysAndItsLockWorks() {
        Http.Response response = Http.post(control, "api/ship?" + Http.query("order", "42"));

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("order:42");
    }

    @Test
    @TckRule(id = "R-4.1-06", spec = "§4.1")
    @OperateOnDeployment(CONTROL)
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
            System.out.println(
                    "[baton-tck] " + BAD + " failed as " + failure.getClass().getName()
                            + " without the server's message (the adapter keeps it in the server's output); the positive "
                            + "control shows the bad bean is the only difference: " + failure.getMessage());
        }
    }
}
