package dev.baton.impl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

@BatonTest
class SmokeTest {

    @Inject
    Locks locks;

    @Inject
    jakarta.enterprise.inject.spi.BeanManager beanManager;

    @Test
    void theConflictMapperIsABeanWhereJaxRsIsPresent() {
        // Runtimes that take JAX-RS providers only from CDI (Helidon) find it this way.
        assertThat(beanManager.getBeans(dev.baton.impl.jaxrs.LockTimeoutExceptionMapper.class))
                .hasSize(1);
    }

    @Test
    void acquiresAndReleases() {
        try (Lock lock = locks.acquire("smoke")) {
            assertThat(lock.isHeld()).isTrue();
            assertThat(lock.fencingToken()).isPositive();
        }
    }
}
