package dev.baton.tck.runtime.definition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The positive control of {@link BadTemplateDeploymentTest}: its archive without the bad bean deploys, and
 * its {@code @Synchronized} method holds the key of its template. So nothing but the bad bean can be why
 * that deployment fails. A class of its own, so that no runtime has two deployments at once (Payara Micro's
 * adapter keeps one server process).
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class GoodTemplateDeploymentTest {

    @ArquillianResource
    URL base;

    /**
     * @param name the archive's name
     * @return the application without the bad bean: a resource calling a {@code @Synchronized} method
     */
    static WebArchive archive(String name) {
        return RuntimeTck.scenario(name).addClasses(ShippingBean.class, ShippingResource.class);
    }

    @Deployment(testable = false)
    static WebArchive deployment() {
        return archive("baton-tck-good-template");
    }

    @Test
    @TckRule(id = "R-4.1-05", spec = "spec-api-template-validated")
    void theArchiveWithoutTheBadBeanDeploysAndItsLockWorks() {
        Http.Response response = Http.post(base, "api/ship?" + Http.query("order", "42"));

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("order:42");
    }
}
