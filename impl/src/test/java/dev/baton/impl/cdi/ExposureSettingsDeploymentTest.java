package dev.baton.impl.cdi;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;

import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * A value that is not one of a setting's forms fails the deployment, naming the key, the value and the forms: a
 * typo must not leave keys where the operator meant to hide them.
 */
class ExposureSettingsDeploymentTest {

    @ApplicationScoped
    public static class UsesLocks {
        @Inject
        Locks locks;
    }

    @Test
    void aLogFormThatIsNotOneFails() {
        assertDeploymentFails(new String[] {"baton.log.keys=hashed"}, UsesLocks.class)
                .hasStackTraceContaining("baton.log.keys: 'hashed' is not plain, hash or masked");
    }

    @Test
    void aConflictFormThatIsNotOneFails() {
        assertDeploymentFails(new String[] {"baton.http.conflict.key=masked"}, UsesLocks.class)
                .hasStackTraceContaining("baton.http.conflict.key: 'masked' is not key, hash or none");
    }

    @Test
    void aHealthDetailsThatIsNotABooleanFails() {
        assertDeploymentFails(new String[] {"baton.health.details=on"}, UsesLocks.class)
                .hasStackTraceContaining("baton.health.details: 'on' is not true or false");
    }

    @Test
    void aForceReleaseRoleThatIsNotAListOfRolesFails() {
        assertDeploymentFails(
                        new String[] {"baton.admin.force-release=true", "baton.admin.force-release.role=ops,"},
                        UsesLocks.class)
                .hasStackTraceContaining("baton.admin.force-release.role: 'ops,'");
    }
}
