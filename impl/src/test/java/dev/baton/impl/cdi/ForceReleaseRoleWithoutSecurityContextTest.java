package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockConfigurationException;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * A role is configured, the Jakarta Security API is on the class path but the container has no
 * {@code SecurityContext} (Weld SE), and no enterprise bean's call is under way: nothing can tell the caller's roles,
 * so the call is refused rather than allowed unchecked.
 */
@BatonTest
@WithConfig({"baton.admin.force-release=true", "baton.admin.force-release.role=ops"})
class ForceReleaseRoleWithoutSecurityContextTest {

    @Inject
    Locks locks;

    @Test
    void theCallIsRefusedNamingTheSetting() {
        try (Lock held = locks.acquire("stuck")) {
            assertThatThrownBy(() -> locks.forceRelease("stuck"))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.admin.force-release.role")
                    .hasMessageContaining("no security context here can tell the caller's roles");
            assertThat(locks.inspect("stuck")).isPresent();
        }
    }
}
