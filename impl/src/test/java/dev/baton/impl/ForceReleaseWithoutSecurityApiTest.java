package dev.baton.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockConfigurationException;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.testing.TestConfig;
import dev.baton.impl.testing.WithConfig;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.inject.Inject;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Run by the surefire execution {@code without-optional-apis}, whose class path lacks Jakarta Security: Baton
 * deploys with a force-release role configured, and refuses the call with a clear exception instead of failing to
 * load a class or allowing it unchecked.
 */
@ExtendWith(TestConfig.class)
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class})
@WithConfig({"baton.admin.force-release=true", "baton.admin.force-release.role=ops"})
class ForceReleaseWithoutSecurityApiTest {

    @Inject
    Locks locks;

    @Test
    void theSecurityApiIsAbsent() {
        assertThatThrownBy(() -> Class.forName("jakarta.security.enterprise.SecurityContext"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void aConfiguredRoleRefusesTheCall() {
        try (Lock held = locks.acquire("stuck")) {
            assertThatThrownBy(() -> locks.forceRelease("stuck"))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.admin.force-release.role allows it to callers in role ops");
            assertThat(locks.inspect("stuck")).isPresent();
        }
    }
}
