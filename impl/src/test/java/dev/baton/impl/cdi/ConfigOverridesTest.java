package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

@BatonTest
@AddBeanClasses({ConfigOverridesTest.Reports.class, ConfigOverridesTest.Billing.class})
@WithConfig({
    "baton.prefix=app:",
    "baton.managers=reports",
    "baton.reports.prefix=rep:",
    "baton.reports.ttl=2m",
    "dev.baton.impl.cdi.ConfigOverridesTest$Reports/build/Synchronized/value=report:{1}",
    "dev.baton.impl.cdi.ConfigOverridesTest$Reports/build/Synchronized/await=false",
    "dev.baton.impl.cdi.ConfigOverridesTest$Billing/Synchronized/timeout=150ms",
    "dev.baton.impl.cdi.ConfigOverridesTest$Billing/charge/Synchronized/ttl=45s"
})
class ConfigOverridesTest {

    @ApplicationScoped
    public static class Reports {
        @Inject
        Locks locks;

        @Synchronized(value = "report:{0}", manager = "reports")
        public String build(String id, String name) {
            Lock lock = locks.current().orElseThrow();
            return lock.key() + " "
                    + Duration.between(java.time.Instant.now(), lock.validUntil())
                            .toMinutes();
        }
    }

    @ApplicationScoped
    public static class Billing {
        @Inject
        Locks locks;

        @Synchronized("invoice:{0}")
        public long charge(long id) {
            return Duration.between(
                            java.time.Instant.now(),
                            locks.current().orElseThrow().validUntil())
                    .toSeconds();
        }

        @Synchronized(value = "refund:{0}", timeout = "30s")
        public void refund(long id) {}
    }

    @Inject
    Reports reports;

    @Inject
    Billing billing;

    @Inject
    Locks locks;

    @Test
    void aMethodOverrideReplacesTheTemplateAndTheManagerKeepsItsTtl() {
        // value overridden to {1}; the "reports" manager's 2-minute ttl applies.
        assertThat(reports.build("id-1", "weekly")).isEqualTo("report:weekly 1");
    }

    @Test
    void aMethodOverrideTurnsWaitingOff() throws Exception {
        Lock held = hold(locks.manager("reports"), "report:weekly");
        try {
            assertThatThrownBy(() -> reports.build("id-1", "weekly"))
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("not waiting");
        } finally {
            held.release();
        }
    }

    @Test
    void aClassOverrideAppliesToEveryMethodAndBeatsTheAnnotation() throws Exception {
        Lock held = hold(locks, "refund:1");
        try {
            long start = System.nanoTime();
            // The annotation says 30 s; the class-level override says 150 ms.
            assertThatThrownBy(() -> billing.refund(1))
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("150 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        } finally {
            held.release();
        }
    }

    @Test
    void aMethodOverrideOfTheTtl() {
        assertThat(billing.charge(1)).isBetween(40L, 45L);
    }

    @Test
    void prefixesKeepManagersApartInTheStore() {
        try (Lock a = locks.acquire("same");
                Lock b = locks.manager("reports").acquire("same")) {
            assertThat(a.isHeld()).isTrue();
            assertThat(b.isHeld()).isTrue();
            assertThat(locks.manager("reports").name()).isEqualTo("reports");
        }
        assertThatThrownBy(() -> locks.manager("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nope' is not declared");
    }

    private static Lock hold(Locks locks, String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> locks.acquire(key)).get(5, TimeUnit.SECONDS);
    }
}
