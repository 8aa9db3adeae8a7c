package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lock;
import dev.baton.LockAlreadyHeldException;
import dev.baton.LockKeyResolver;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.event.LockAcquired;
import dev.baton.event.LockReleased;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.ExclusionDetector;
import dev.baton.tck.Together;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

@BatonTest
@AddBeanClasses({
    SynchronizedInterceptorTest.Orders.class,
    SynchronizedInterceptorTest.Inventory.class,
    SynchronizedInterceptorTest.TenantKeys.class,
    SynchronizedInterceptorTest.Observer.class
})
class SynchronizedInterceptorTest {

    public record Customer(String id) {}

    public record Order(long id, Customer customer) {}

    @ApplicationScoped
    public static class Orders {
        final ExclusionDetector detector = new ExclusionDetector();
        volatile CompletableFuture<String> pending;

        @Inject
        Locks locks;

        @Inject
        Orders self;

        @Synchronized("order:{id}")
        public void pay(long id) {
            detector.enter();
            detector.exit();
        }

        @Synchronized("order:{id}:{1}")
        public String byNameAndPosition(long id, String step) {
            return currentKey();
        }

        @Synchronized("customer:{order.customer.id}/{0.id}")
        public String byPath(Order order) {
            return currentKey();
        }

        @Synchronized
        public String defaultKey() {
            return currentKey();
        }

        @Synchronized(value = "reindex", await = false)
        public void reindex() {}

        @Synchronized(value = "slow", timeout = "200ms")
        public void slow() {}

        @Synchronized(resolver = TenantKeys.class)
        public String resolved(String tenant) {
            return currentKey();
        }

        @Synchronized("async:{id}")
        public CompletionStage<String> async(long id) {
            pending = new CompletableFuture<>();
            return pending;
        }

        @Synchronized("failing")
        public void failing() {
            throw new IllegalStateException("boom");
        }

        @Synchronized("nested:{id}")
        public void reenter(long id) {
            self.reenter(id);
        }

        @Synchronized("token")
        public long token() {
            return locks.current().orElseThrow().fencingToken();
        }

        ExclusionDetector detector() {
            return detector;
        }

        CompletableFuture<String> pending() {
            return pending;
        }

        private String currentKey() {
            return locks.current().map(Lock::key).orElse("<none>");
        }
    }

    @ApplicationScoped
    @Synchronized("inventory")
    public static class Inventory {
        final ExclusionDetector detector = new ExclusionDetector();

        public void add() {
            detector.enter();
            detector.exit();
        }

        public void remove() {
            detector.enter();
            detector.exit();
        }

        ExclusionDetector detector() {
            return detector;
        }
    }

    @ApplicationScoped
    public static class TenantKeys implements LockKeyResolver {
        @Override
        public String resolveKey(Method method, Object[] arguments) {
            return "tenant:" + arguments[0] + ":" + method.getName();
        }
    }

    @ApplicationScoped
    public static class Observer {
        final List<String> sync = new CopyOnWriteArrayList<>();
        final List<String> async = new CopyOnWriteArrayList<>();

        void acquired(@Observes LockAcquired event) {
            sync.add("acquired " + event.key() + " " + event.fencingToken());
        }

        void released(@Observes LockReleased event) {
            sync.add("released " + event.key() + " " + event.fencingToken());
        }

        void acquiredAsync(@ObservesAsync LockAcquired event) {
            async.add("acquired " + event.key());
        }

        List<String> sync() {
            return sync;
        }

        List<String> async() {
            return async;
        }
    }

    @Inject
    Orders orders;

    @Inject
    Inventory inventory;

    @Inject
    Locks locks;

    @Inject
    Observer observer;

    @Test
    void concurrentCallsForOneKeyNeverOverlap() throws Exception {
        Together.run(8, t -> {
            for (int i = 0; i < 150; i++) {
                orders.pay(7);
            }
        });
        assertThat(orders.detector().entries()).isEqualTo(8 * 150);
        assertThat(orders.detector().maxInside()).isEqualTo(1);
    }

    @Test
    void aClassLevelKeyExcludesAcrossItsMethods() throws Exception {
        Together.run(6, t -> {
            for (int i = 0; i < 100; i++) {
                if (t % 2 == 0) {
                    inventory.add();
                } else {
                    inventory.remove();
                }
            }
        });
        assertThat(inventory.detector().maxInside()).isEqualTo(1);
        assertThat(inventory.detector().entries()).isEqualTo(600);
    }

    @Test
    void keysFromNamesPositionsPathsRecordsAndResolvers() {
        assertThat(orders.byNameAndPosition(42, "ship")).isEqualTo("order:42:ship");
        assertThat(orders.byPath(new Order(9, new Customer("c-1")))).isEqualTo("customer:c-1/9");
        assertThat(orders.defaultKey()).isEqualTo(Orders.class.getName() + ".defaultKey");
        assertThat(orders.resolved("acme")).isEqualTo("tenant:acme:resolved");
    }

    @Test
    void aNullKeyValueFailsTheCallWithoutTakingALock() {
        assertThatThrownBy(() -> orders.byPath(new Order(1, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("{order.customer.id} is null");
    }

    @Test
    void theHeldLockIsReachableInsideTheMethod() {
        long first = orders.token();
        assertThat(orders.token()).isGreaterThan(first);
        assertThat(locks.current()).isEmpty();
    }

    @Test
    void notAwaitingFailsAtOnceWhileAnotherHolds() throws Exception {
        Lock held =
                CompletableFuture.supplyAsync(() -> locks.acquire("reindex")).get(5, TimeUnit.SECONDS);
        try {
            assertThatThrownBy(orders::reindex)
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("not waiting");
        } finally {
            held.release();
        }
        orders.reindex();
    }

    @Test
    void theAnnotatedTimeoutIsHonoured() throws Exception {
        Lock held = CompletableFuture.supplyAsync(() -> locks.acquire("slow")).get(5, TimeUnit.SECONDS);
        try {
            long start = System.nanoTime();
            assertThatThrownBy(orders::slow)
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("200 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        } finally {
            held.release();
        }
    }

    @Test
    void aCompletionStageKeepsItsLockUntilItCompletes() {
        CompletionStage<String> stage = orders.async(5);
        assertThat(locks.tryAcquire("async:5")).as("held while the stage runs").isEmpty();
        orders.pending().complete("done");
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            var lock = locks.tryAcquire("async:5");
            lock.ifPresent(Lock::close);
            return lock.isPresent();
        });
        assertThat(stage.toCompletableFuture().join()).isEqualTo("done");
    }

    @Test
    void theLockIsReleasedWhenTheMethodThrows() {
        assertThatThrownBy(orders::failing)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("boom");
        try (Lock lock = locks.tryAcquire("failing").orElseThrow()) {
            assertThat(lock.isHeld()).isTrue();
        }
    }

    @Test
    void reenteringTheSameKeyFailsFast() {
        assertThatThrownBy(() -> orders.reenter(3))
                .isInstanceOf(LockAlreadyHeldException.class)
                .hasMessageContaining("'nested:3'")
                .hasMessageContaining("not reentrant");
        locks.tryAcquire("nested:3").orElseThrow().close();
    }

    @Test
    void eventsAreFiredSynchronouslyAndAsynchronously() {
        orders.pay(99);
        assertThat(observer.sync())
                .anyMatch(e -> e.startsWith("acquired order:99 "))
                .anyMatch(e -> e.startsWith("released order:99 "));
        await().atMost(Duration.ofSeconds(5)).until(() -> observer.async().contains("acquired order:99"));
    }
}
