package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import dev.baton.Lock;
import dev.baton.LockLostException;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.RollbackException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The application stops (CDI shuts down: undeploy, {@code @PreDestroy}) while work still runs under its
 * locks. The holders are told first; a lock is released when its work ends, within the grace period; a
 * lock whose work outlasts the grace period is left to expire, not released, so another instance (here
 * an observer on the shared store) cannot take the key while the work may still write. A transaction
 * under a lock revoked at shutdown cannot commit.
 */
class ShutdownWhileWorkRunsTest {

    static final MemoryLockStore SHARED = new MemoryLockStore();
    static final long TTL = 2_000;
    static final long GRACE = 1_500;

    /** The events of a round, in order: the worker's writes and the observer's acquisition. */
    static final List<String> EVENTS = new ArrayList<>();

    static volatile CountDownLatch inside;
    static volatile CountDownLatch finish;
    static final List<LockLostException> LOSSES = new ArrayList<>();

    public static class SharedStore {
        @Produces
        @Singleton
        LockStore store() {
            return SHARED;
        }
    }

    public static class Jta {
        @Produces
        @Singleton
        TransactionSynchronizationRegistry registry() {
            return new TransactionSynchronizationRegistryImple();
        }
    }

    @ApplicationScoped
    public static class Worker {
        @Inject
        Locks locks;

        /** Writes until it is told the lock is lost, then finishes its unit of work (100 ms of writes). */
        @Synchronized("shutdown:polite")
        public void polite() {
            Lock lock = begin();
            while (lock.isHeld()) {
                write("polite");
            }
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            while (System.nanoTime() < end) {
                write("polite");
            }
        }

        /** Writes until the test lets it finish, whatever it is told. */
        @Synchronized("shutdown:stubborn")
        public void stubborn() throws InterruptedException {
            begin();
            while (!finish.await(2, TimeUnit.MILLISECONDS)) {
                write("stubborn");
            }
        }

        /** Returns at once; in a transaction its lock is released when the transaction completes. */
        @Synchronized("shutdown:transactional")
        public void transactional() {
            begin();
        }

        private Lock begin() {
            Lock lock = locks.current().orElseThrow();
            lock.whenLost().thenAccept(reason -> {
                synchronized (LOSSES) {
                    LOSSES.add(reason);
                }
            });
            inside.countDown();
            return lock;
        }

        private static void write(String what) {
            synchronized (EVENTS) {
                EVENTS.add("write " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final TransactionManager tm = com.arjuna.ats.jta.TransactionManager.transactionManager();

    @AfterEach
    void clean() {
        TestConfig.uninstall();
        EVENTS.clear();
        LOSSES.clear();
    }

    private WeldContainer start(Class<?>... more) {
        TestConfig.install("baton.ttl=" + TTL + "ms", "baton.shutdown-grace=" + GRACE + "ms");
        inside = new CountDownLatch(1);
        finish = new CountDownLatch(1);
        List<Class<?>> beans = new ArrayList<>(List.of(SharedStore.class, Worker.class));
        beans.addAll(List.of(more));
        return Deployments.weld(beans.toArray(Class<?>[]::new)).initialize();
    }

    /** Tries to take {@code key} on the shared store until it does (or {@code stop} is set); records when. */
    private static CompletableFuture<Void> observe(String key, AtomicBoolean stop) {
        return CompletableFuture.runAsync(() -> {
            while (!stop.get()) {
                if (SHARED.acquire(Acquisition.of(key, "observer", 60_000)).isAcquired()) {
                    synchronized (EVENTS) {
                        EVENTS.add("observer took " + key);
                    }
                    return;
                }
                LockSupport.parkNanos(200_000);
            }
        });
    }

    @Test
    void aLockIsReleasedWhenItsWorkEndsWithinTheGracePeriodAndNotBefore() throws Exception {
        WeldContainer container = start();
        Worker worker = container.select(Worker.class).get();
        CompletableFuture<Void> work = CompletableFuture.runAsync(worker::polite);
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Void> observer = observe("shutdown:polite", stop);

        long closing = System.nanoTime();
        container.close();
        long closedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing);

        work.get(10, TimeUnit.SECONDS);
        observer.get(10, TimeUnit.SECONDS);
        List<String> events;
        synchronized (EVENTS) {
            events = List.copyOf(EVENTS);
        }
        int took = events.indexOf("observer took shutdown:polite");
        assertThat(took).as("the observer took the key in the end").isPositive();
        assertThat(events.subList(took, events.size()))
                .as("no write after another owner took the key")
                .containsExactly("observer took shutdown:polite");
        assertThat(closedAfterMillis)
                .as("the shutdown waited for the work, not for the whole grace period")
                .isLessThan(GRACE);
        synchronized (LOSSES) {
            assertThat(LOSSES)
                    .as("the holder was told")
                    .singleElement()
                    .satisfies(reason -> assertThat(reason).hasMessageContaining("shutting down"));
        }
    }

    @Test
    void aLockWhoseWorkOutlastsTheGracePeriodIsLeftToExpire() throws Exception {
        WeldContainer container = start();
        Worker worker = container.select(Worker.class).get();
        CompletableFuture<Void> work = CompletableFuture.runAsync(() -> {
            try {
                worker.stubborn();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        long closing = System.nanoTime();
        container.close();
        long closedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing);

        assertThat(closedAfterMillis)
                .as("the shutdown waited for the grace period")
                .isGreaterThanOrEqualTo(GRACE - 50);
        assertThat(SHARED.acquire(Acquisition.of("shutdown:stubborn", "observer", 60_000))
                        .isAcquired())
                .as("the lock is not released while its work still runs")
                .isFalse();
        synchronized (LOSSES) {
            assertThat(LOSSES)
                    .as("the holder was told")
                    .singleElement()
                    .satisfies(reason -> assertThat(reason).hasMessageContaining("shutting down"));
        }
        // Left to expire: free once its lease (renewed until the grace period ended) is over.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> SHARED.acquire(Acquisition.of("shutdown:stubborn", "observer", 60_000))
                        .isAcquired());

        finish.countDown();
        work.get(10, TimeUnit.SECONDS); // its late release is no error
        assertThat(SHARED.release("shutdown:stubborn", "observer"))
                .as("the late release did not touch the new holder's lock")
                .isTrue();
    }

    @Test
    void aTransactionUnderALockRevokedAtShutdownCannotCommit() throws Exception {
        WeldContainer container = start(Jta.class);
        Worker worker = container.select(Worker.class).get();
        CountDownLatch closed = new CountDownLatch(1);
        CompletableFuture<Throwable> commit = CompletableFuture.supplyAsync(() -> {
            try {
                tm.begin();
                worker.transactional(); // returns; the lock is held until the transaction completes
                closed.await(10, TimeUnit.SECONDS);
                tm.commit();
                return null;
            } catch (Exception e) {
                return e;
            }
        });
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        CompletableFuture<Void> closing = CompletableFuture.runAsync(container::close);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            synchronized (LOSSES) {
                return !LOSSES.isEmpty();
            }
        });
        closed.countDown();

        assertThat(commit.get(10, TimeUnit.SECONDS)).as("the commit fails").isInstanceOf(RollbackException.class);
        closing.get(10, TimeUnit.SECONDS);
        assertThat(SHARED.acquire(Acquisition.of("shutdown:transactional", "observer", 1_000))
                        .isAcquired())
                .as("released once the transaction completed")
                .isTrue();
    }
}
