package dev.baton.tck.runtime.applications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two applications deployed at once into one server, each with its own copy of the Baton jars, take locks in
 * turn, several times each. Each must find its own store factories: a server may leave a request thread's context
 * class loader pointing at another application's classes or at a loader of its own (TomEE's JAX-RS layer does), and
 * a lookup through it alone found the first application's memory store for every later one, which is not of the
 * later one's SPI ({@code ServiceLoader}: "not a subtype", HTTP 500). A fresh server per test class hides it.
 */
@Tag(RuntimeTck.TAG_TWO_DEPLOYMENTS)
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class TwoApplicationsTest {

    static final String FIRST = "baton-tck-application-one";

    static final String SECOND = "baton-tck-application-two";

    static final int ROUNDS = 3;

    @Deployment(name = FIRST, testable = false)
    static WebArchive first() {
        return RuntimeTck.scenario(FIRST).addClass(LockingResource.class);
    }

    @Deployment(name = SECOND, testable = false)
    static WebArchive second() {
        return RuntimeTck.scenario(SECOND).addClass(LockingResource.class);
    }

    @ArquillianResource
    @OperateOnDeployment(FIRST)
    URL first;

    @ArquillianResource
    @OperateOnDeployment(SECOND)
    URL second;

    @Test
    @TckRule(id = "R-8.2-04", spec = "spec-runtime-applications-apart")
    void eachApplicationTakesItsLocksWithItsOwnStores() {
        for (int round = 0; round < ROUNDS; round++) {
            for (URL application : List.of(first, second)) {
                Http.Response response = Http.post(application, "api/locking?" + Http.query("key", "two-applications"));
                assertThat(response.status())
                        .as("round %d, %s: %s", round, application, response.body())
                        .isEqualTo(200);
                assertThat(response.body())
                        .as("round %d, %s", round, application)
                        .matches("token=[1-9][0-9]*");
            }
        }
    }
}
