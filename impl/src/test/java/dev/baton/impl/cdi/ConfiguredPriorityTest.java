package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.impl.testing.FaultToleranceTest;
import dev.baton.impl.testing.WithConfig;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/** {@code baton.interceptor.priority} moves the lock outside Fault Tolerance: then @Fallback no longer sees the timeout. */
@WithConfig("baton.interceptor.priority=1000")
@FaultToleranceTest
@AddBeanClasses({FaultToleranceOrderTest.Payments.class, FaultToleranceOrderTest.StoreProducer.class})
class ConfiguredPriorityTest {

    @Inject
    FaultToleranceOrderTest.Payments payments;

    @Inject
    Locks locks;

    @Test
    void theLockRunsOutsideFaultToleranceWhenConfiguredSo() throws Exception {
        Lock held = CompletableFuture.supplyAsync(() -> locks.acquire("pay:1")).get(5, TimeUnit.SECONDS);
        try {
            assertThatThrownBy(() -> payments.pay(1)).isInstanceOf(LockTimeoutException.class);
        } finally {
            held.release();
        }
    }
}
