package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.testing.FaultToleranceTest;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.spi.Acquisition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.constraints.NotBlank;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * The lock sits inside MicroProfile Fault Tolerance and Bean Validation: {@code @Fallback} sees a lock
 * timeout, {@code @Retry} re-attempts the acquisition, and invalid input never reaches the store. Real
 * SmallRye Fault Tolerance and Hibernate Validator.
 */
@FaultToleranceTest
@AddBeanClasses({FaultToleranceOrderTest.Payments.class, FaultToleranceOrderTest.StoreProducer.class})
class FaultToleranceOrderTest {

    @ApplicationScoped
    public static class Payments {
        @Fallback(fallbackMethod = "busy")
        @Synchronized(value = "pay:{id}", await = false)
        public String pay(long id) {
            return "paid " + id;
        }

        public String busy(long id) {
            return "busy " + id;
        }

        @Retry(maxRetries = 100, delay = 20, jitter = 0, maxDuration = 20_000, retryOn = LockTimeoutException.class)
        @Synchronized(value = "retry:{id}", await = false)
        public String retried(long id) {
            return "retried " + id;
        }

        @Synchronized("valid:{name}")
        public String validated(@NotBlank String name) {
            return name;
        }
    }

    public static class StoreProducer {
        @Produces
        @Singleton
        FaultyStore store() {
            return new FaultyStore();
        }
    }

    @Inject
    Payments payments;

    @Inject
    Locks locks;

    @Inject
    FaultyStore store;

    @Test
    void fallbackTurnsALockTimeoutIntoAResult() throws Exception {
        Lock held = hold("pay:1");
        try {
            assertThat(payments.pay(1)).isEqualTo("busy 1");
        } finally {
            held.release();
        }
        assertThat(payments.pay(1)).isEqualTo("paid 1");
    }

    @Test
    void retryReattemptsTheAcquisitionWithoutHoldingTheLockBetweenAttempts() throws Exception {
        // Another instance holds the key (straight in the shared store), so every attempt reaches the store.
        assertThat(store.acquire(Acquisition.of("retry:2", "other-instance", 60_000))
                        .isAcquired())
                .isTrue();
        int before = store.acquireCalls.get();
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> payments.retried(2));
        org.awaitility.Awaitility.await().until(() -> store.acquireCalls.get() - before >= 3);
        assertThat(call).isNotDone();
        assertThat(store.release("retry:2", "other-instance")).isTrue();
        assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("retried 2");
        assertThat(store.acquireCalls.get() - before).isGreaterThanOrEqualTo(3);
    }

    @Test
    void invalidInputNeverTakesTheLock() {
        int before = store.acquireCalls.get();
        assertThatThrownBy(() -> payments.validated(" ")).isInstanceOf(ConstraintViolationException.class);
        assertThat(store.acquireCalls.get()).isEqualTo(before);
        assertThat(payments.validated("ok")).isEqualTo("ok");
        assertThat(store.acquireCalls.get()).isEqualTo(before + 1);
    }

    private Lock hold(String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> locks.acquire(key)).get(5, TimeUnit.SECONDS);
    }
}
