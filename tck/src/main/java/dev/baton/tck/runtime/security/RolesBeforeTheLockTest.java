package dev.baton.tck.runtime.security;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @RolesAllowed} on a {@code @Synchronized} session bean method is checked before the lock is taken: a
 * caller without the role is refused ({@code EJBAccessException}, or the server's equivalent) and the store is
 * never asked; the same method called in the role ({@code @RunAs}) takes its lock in the store.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
@Tag(RuntimeTck.TAG_EJB)
@Tag(RuntimeTck.TAG_EJB_SECURITY)
class RolesBeforeTheLockTest {

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.scenario("baton-tck-roles-before-the-lock")
                .addClasses(CountingStore.class, GuardedBean.class, GuardedResource.class, RunAsCaller.class)
                // Payara: the role mapped to a principal, which @RunAs needs (other servers ignore the file)
                .addAsWebInfResource(GuardedBean.class.getPackage(), "glassfish-web.xml", "glassfish-web.xml")
                // WildFly: the module in a security domain, which @RunAs needs (other servers ignore the file)
                .addAsWebInfResource(GuardedBean.class.getPackage(), "jboss-web.xml", "jboss-web.xml");
    }

    @Test
    @TckRule(id = "R-4.1-07", spec = "spec-runtime-security-before-lock")
    void aCallerWithoutTheRoleIsRefusedBeforeTheStoreIsAsked() {
        Http.Response refused = Http.post(base, "api/guarded/anonymous");
        assertThat(refused.status()).as(refused.body()).isEqualTo(200);
        assertThat(refused.body()).as("the call without the role").startsWith("refused:");
        assertThat(refused.body()).as("the refusal").containsIgnoringCase("Access");
        assertThat(Http.getBody(base, "api/guarded/acquisitions"))
                .as("acquisitions the store was asked for, after the refused call")
                .isEqualTo("0");

        Http.Response allowed = Http.post(base, "api/guarded/run-as");
        assertThat(allowed.status()).as(allowed.body()).isEqualTo(200);
        assertThat(allowed.body()).as("the call in the role").startsWith("worked, token=");
        assertThat(Http.getBody(base, "api/guarded/acquisitions"))
                .as("acquisitions the store was asked for, after the call in the role")
                .isEqualTo("1");
    }
}
