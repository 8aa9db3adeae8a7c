package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Leadership;
import dev.baton.Lock;
import dev.baton.LockStoreException;
import dev.baton.Locks;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The application's resources may close as the application starts to stop, before any bean is destroyed (Quarkus
 * closes its persistence units on {@code @BeforeDestroyed(ApplicationScoped.class)}): the locks and leaderships still
 * held are given back through the store before that, not left to expire.
 */
class ReleaseBeforeResourcesCloseTest {

    static final MemoryLockStore SHARED = new MemoryLockStore();
    static final List<String> CALLS = new CopyOnWriteArrayList<>();

    /** A store on a resource that closes with the application's first stopping event, as a persistence unit. */
    @ApplicationScoped
    public static class ClosingResource {
        private volatile boolean closed;

        void close(@Observes @BeforeDestroyed(ApplicationScoped.class) Object event) {
            closed = true;
            CALLS.add("resource closed");
        }

        @Produces
        @Singleton
        LockStore store() {
            return new ForwardingLockStore(SHARED) {
                @Override
                public AcquireResult acquire(Acquisition acquisition) {
                    open();
                    return super.acquire(acquisition);
                }

                @Override
                public boolean release(String key, String owner) {
                    open();
                    CALLS.add("release " + key);
                    return super.release(key, owner);
                }
            };
        }

        private void open() {
            if (closed) {
                throw new LockStoreException("the resource is closed");
            }
        }
    }

    @AfterEach
    void clean() {
        TestConfig.uninstall();
    }

    @Test
    void locksAndLeadershipsAreGivenBackBeforeTheResourcesClose() throws Exception {
        TestConfig.install();
        try (WeldContainer container = Deployments.weld(ClosingResource.class).initialize()) {
            Locks locks = container.select(Locks.class).get();
            Lock lock = locks.acquire("closing:lock");
            lock.whenLost().thenRun(lock::close); // given back when Baton says the application stops
            Leadership leadership = locks.lead("closing");
            leadership.whenGranted().toCompletableFuture().get(10, TimeUnit.SECONDS); // the only candidate leads
        }
        assertThat(CALLS)
                .as("the store's calls as the application stopped")
                .containsSubsequence("release closing:lock", "resource closed")
                .containsSubsequence("release " + Leadership.KEY_PREFIX + "closing", "resource closed");
        for (String key : new String[] {"closing:lock", Leadership.KEY_PREFIX + "closing"}) {
            assertThat(SHARED.acquire(Acquisition.of(key, "other-instance", 1_000))
                            .isAcquired())
                    .as("%s, taken by another instance at once", key)
                    .isTrue();
        }
    }
}
