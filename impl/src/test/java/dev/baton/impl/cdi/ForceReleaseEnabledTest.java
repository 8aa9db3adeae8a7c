package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.LockInfo;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import dev.baton.tck.LogCapture;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code baton.admin.force-release=true} reaches the injected {@link Locks}; the log names the caller. */
@BatonTest
@WithConfig({"baton.admin.force-release=true", "baton.ttl=600ms"})
class ForceReleaseEnabledTest {

    @Inject
    Locks locks;

    @Test
    void anAdministratorFreesAStuckKey() {
        try (LogCapture log = LogCapture.start("dev.baton")) {
            Lock stuck = locks.acquire("stuck");
            assertThat(locks.inspect("stuck"))
                    .hasValueSatisfying(info -> assertThat(info.heldHere()).isTrue());
            assertThat(locks.held()).extracting(LockInfo::key).containsExactly("stuck");

            assertThat(locks.forceRelease("stuck")).isTrue();

            assertThat(locks.inspect("stuck")).isEmpty();
            assertThat(stuck.whenLost()
                            .toCompletableFuture()
                            .orTimeout(5, TimeUnit.SECONDS)
                            .join())
                    .as("told at its next renewal")
                    .hasMessageContaining("no longer holds it");
            assertThat(log.messages())
                    .anySatisfy(line -> assertThat(line)
                            .contains(
                                    "BATON-050",
                                    "'stuck'",
                                    "thread '" + Thread.currentThread().getName() + "'",
                                    "principal"));
            stuck.close();
            try (Lock next =
                    locks.acquire("stuck", dev.baton.LockOptions.defaults().withTimeout(Duration.ofSeconds(2)))) {
                assertThat(next.fencingToken()).isGreaterThan(stuck.fencingToken());
            }
        }
    }
}
