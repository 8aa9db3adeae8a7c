package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.impl.testing.TestConfig;
import dev.baton.impl.testing.WithConfig;
import io.smallrye.config.inject.ConfigExtension;
import io.smallrye.faulttolerance.FaultToleranceExtension;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hibernate.validator.cdi.ValidationExtension;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code baton.interceptor.priority} moves the lock outside Fault Tolerance: then @Fallback no longer sees the timeout. */
@ExtendWith(TestConfig.class)
@WithConfig("baton.interceptor.priority=1000")
@EnableAutoWeld
@AddExtensions({dev.baton.impl.cdi.BatonExtension.class, ConfigExtension.class, FaultToleranceExtension.class,
    ValidationExtension.class})
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
