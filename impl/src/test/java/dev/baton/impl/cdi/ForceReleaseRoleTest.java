package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import dev.baton.tck.LogCapture;
import jakarta.inject.Inject;
import java.util.logging.Level;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * {@code baton.admin.force-release.role}: Jakarta Security's {@code SecurityContext} says whether the caller is in
 * one of the roles; a caller in none is refused before the store is asked, a caller in one frees the key and the
 * audit line names it and its role.
 */
@BatonTest
@AddBeanClasses(TestSecurityContext.class)
@WithConfig({"baton.admin.force-release=true", "baton.admin.force-release.role=lock-admin,ops"})
class ForceReleaseRoleTest {

    @Inject
    Locks locks;

    @Inject
    TestSecurityContext security;

    @Test
    void aCallerInNoneOfTheRolesIsRefusedAndTheLockStaysHeld() {
        security.caller("mallory", "orders", "guest");
        try (Lock held = locks.acquire("stuck-1")) {
            assertThatThrownBy(() -> locks.forceRelease("stuck-1"))
                    .isInstanceOf(SecurityException.class)
                    .hasMessageContaining("lock-admin or ops")
                    .hasMessageContaining("baton.admin.force-release.role")
                    .hasMessageContaining("principal 'mallory'");
            assertThat(held.isHeld()).isTrue();
            assertThat(locks.inspect("stuck-1")).isPresent();
        }
    }

    @Test
    void anUnauthenticatedCallerIsRefused() {
        security.caller(null);
        try (Lock held = locks.acquire("stuck-2")) {
            assertThatThrownBy(() -> locks.forceRelease("stuck-2"))
                    .isInstanceOf(SecurityException.class)
                    .hasMessageContaining("the unauthenticated caller");
            assertThat(locks.inspect("stuck-2")).isPresent();
        }
    }

    @Test
    void aCallerInOneOfTheRolesFreesTheKeyAndIsLogged() {
        security.caller("olivia", "guest", "ops");
        try (LogCapture log = LogCapture.start("dev.baton");
                Lock held = locks.acquire("stuck-3")) {
            assertThat(locks.forceRelease("stuck-3")).isTrue();

            assertThat(locks.inspect("stuck-3")).isEmpty();
            assertThat(log.messages(Level.WARNING, "BATON-050"))
                    .singleElement()
                    .asString()
                    .contains("'stuck-3'", "thread '" + Thread.currentThread().getName() + "'", "in role 'ops'");
        }
    }
}
