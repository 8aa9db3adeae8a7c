package dev.baton.impl.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.LockStoreException;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.Renewal;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.json.JsonObject;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Baton's health checks as SmallRye Health reports them: readiness follows the store, liveness the renewals. */
@ExtendWith(TestConfig.class)
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class, HealthExtension.class})
@AddBeanClasses({SmallRyeHealthReporter.class, HealthChecksTest.Stores.class})
class HealthChecksTest {

    /** Where the test's store says it is, in its description and its errors: what a health answer must not show. */
    static final String WHERE = "redis://cache-7.internal.example:6379";

    /** A store that can be taken down, or made to hang. */
    public static final class SwitchableStore extends ForwardingLockStore {
        volatile boolean down;
        volatile CountDownLatch hang;

        SwitchableStore() {
            super(new MemoryLockStore());
        }

        @Override
        public boolean renew(Renewal renewal) {
            CountDownLatch latch = hang;
            if (latch != null) {
                try {
                    latch.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (down) {
                throw new LockStoreException("connection refused: " + WHERE + " (test)");
            }
            return super.renew(renewal);
        }

        @Override
        public String toString() {
            return "switchable (" + WHERE + ")";
        }
    }

    public static class Stores {
        @Produces
        @Singleton
        SwitchableStore store = new SwitchableStore();
    }

    @Inject
    SmallRyeHealthReporter reporter;

    @Inject
    Locks locks;

    @Inject
    SwitchableStore store;

    @AfterEach
    void healthy() {
        store.down = false;
        CountDownLatch latch = store.hang;
        if (latch != null) {
            latch.countDown();
        }
    }

    private JsonObject check(SmallRyeHealth health, String name) {
        return health.getPayload().getJsonArray("checks").stream()
                .map(JsonObject.class::cast)
                .filter(c -> c.getString("name").equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in " + health.getPayload()));
    }

    @Test
    void readinessIsUpWhileTheStoreAnswersDownWhileItFailsAndUpAgainAfter() {
        JsonObject up = check(reporter.getReadiness(), StoresReadinessCheck.NAME);
        assertThat(up.getString("status")).isEqualTo("UP");
        assertThat(up.getJsonObject("data").getString("default.store")).isEqualTo("switchable");
        assertThat(up.getJsonObject("data").getString("default.status")).isEqualTo("UP");

        store.down = true;
        SmallRyeHealth down = reporter.getReadiness();

        assertThat(down.isDown()).isTrue();
        JsonObject failing = check(down, StoresReadinessCheck.NAME);
        assertThat(failing.getString("status")).isEqualTo("DOWN");
        assertThat(failing.getJsonObject("data").getString("default.error"))
                .as("the failure's type, not its message")
                .isEqualTo(LockStoreException.class.getName());
        assertThat(failing.getJsonObject("data").getString("default.store")).isEqualTo("switchable");
        assertThat(down.getPayload().toString()).doesNotContain("cache-7", "connection refused");

        store.down = false;
        assertThat(check(reporter.getReadiness(), StoresReadinessCheck.NAME).getString("status"))
                .isEqualTo("UP");
    }

    @Test
    void aHangingStoreIsDownAfterTheProbesTimeoutAndNotAskedAgainMeanwhile() {
        store.hang = new CountDownLatch(1);

        long started = System.nanoTime();
        JsonObject first = check(reporter.getReadiness(), StoresReadinessCheck.NAME);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        JsonObject second = check(reporter.getReadiness(), StoresReadinessCheck.NAME);

        assertThat(first.getString("status")).isEqualTo("DOWN");
        assertThat(first.getJsonObject("data").getString("default.error")).contains("did not answer within 2000 ms");
        assertThat(tookMillis).as("bounded by the probe's own timeout").isLessThan(5_000);
        assertThat(second.getJsonObject("data").getString("default.error"))
                .contains("previous probe of the store has not come back");
        store.hang.countDown();
    }

    @Test
    void livenessIsUpWithItsDataWhileLocksAreRenewed() {
        try (Lock lock = locks.acquire("alive")) {
            JsonObject live = check(reporter.getLiveness(), RenewalsLivenessCheck.NAME);

            assertThat(live.getString("status")).isEqualTo("UP");
            JsonObject data = live.getJsonObject("data");
            assertThat(data.getJsonNumber("default.held").intValue()).isEqualTo(1);
            assertThat(data.getJsonNumber("default.overdueRenewals").intValue()).isZero();
            assertThat(data.getJsonNumber("default.untoldLosses").intValue()).isZero();
        }
    }
}
