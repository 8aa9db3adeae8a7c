package dev.baton.tck.runtime.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.enterprise.inject.spi.DefinitionException;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.junit.jupiter.api.Test;

/** What {@link BadTemplateDeploymentTest} accepts as the refusal of its bad deployment. */
class DeploymentFailureTest {

    private static final String BATONS_MESSAGE = "dev.baton.LockConfigurationException: @Synchronized on "
            + BadTemplateBean.class.getName() + ".ship(): placeholder {customer}: the method has no parameter named "
            + "'customer'";

    private static boolean check(Throwable failure) {
        return DeploymentFailure.check(failure, BadTemplateBean.class, "ship", BadTemplateBean.PLACEHOLDER);
    }

    @Test
    void arquilliansDeploymentExceptionWithTheServersMessageIsAccepted() {
        assertThat(check(new DeploymentException("Cannot deploy baton-tck-bad-template.war: WFLYCTL0080: "
                        + "Failed services ... WELD-000049 ... " + BATONS_MESSAGE)))
                .isTrue();
    }

    @Test
    void cdisDefinitionExceptionWithBatonsExceptionAsCauseIsAccepted() {
        assertThat(check(new DefinitionException(new IllegalStateException(BATONS_MESSAGE))))
                .isTrue();
    }

    @Test
    void aFailureWithoutTheServersMessageIsAcceptedAsSuch() {
        assertThat(check(new DeploymentException("Payara Micro started without the application: the deployment "
                        + "failed (its reason is in the Payara Micro output above)")))
                .isFalse();
    }

    @Test
    void aDeploymentThatSucceededFails() {
        assertThatThrownBy(() -> check(null)).isInstanceOf(AssertionError.class).hasMessageContaining("was accepted");
    }

    @Test
    void anotherTypeFails() {
        assertThatThrownBy(() -> check(new IllegalStateException(BATONS_MESSAGE)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("as java.lang.IllegalStateException, not as one of");
    }

    @Test
    void anotherErrorOfTheServerFails() {
        assertThatThrownBy(() -> check(new DeploymentException(
                        "dev.baton.LockConfigurationException: baton.ttl: " + "Invalid duration '-30s'")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("does not name " + BadTemplateBean.class.getName() + ".ship() and {customer}");
    }
}
