package dev.baton.tck.runtime.smoke;

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
 * The deployment itself works before any lock is taken: a JAX-RS resource calls a CDI bean that
 * reads {@code microprofile-config.properties}, and the Baton libraries are on the application's
 * class path (the memory store is found through {@link java.util.ServiceLoader}).
 */
// tag::scenario[]
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class SmokeTest {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.war("baton-tck-smoke")
                        .addClasses(SmokeApplication.class, SmokeResource.class, SmokeBean.class),
                "tck.smoke.greeting",
                "hello from microprofile-config.properties");
    }

    @ArquillianResource
    URL base;

    @Test
    @TckRule(id = "R-6-01", spec = "spec-config-source")
    void resourceBeanAndConfigurationWork() {
        Http.Response response = Http.get(base, "api/smoke");

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(response.body())
                .contains("greeting=hello from microprofile-config.properties")
                .containsPattern("stores=.*\\bmemory\\b");
    }
}
// end::scenario[]
