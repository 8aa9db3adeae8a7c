package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.LockOptions;
import dev.baton.LockType;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.WithConfig;
import dev.baton.tck.Together;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.Test;

/**
 * {@code @Synchronized} with permits, read and write types, and methods returning a stage, which wait for their
 * lock without the calling thread.
 */
@BatonTest
@WithConfig({
    "baton.store=memory",
    "dev.baton.impl.cdi.SharedAndAsyncInterceptorTest$Exports/narrow/Synchronized/permits=1"
})
@AddBeanClasses({SharedAndAsyncInterceptorTest.Exports.class, SharedAndAsyncInterceptorTest.Catalog.class})
class SharedAndAsyncInterceptorTest {

    /** Counts how many run at once. */
    static final class Inside {
        final AtomicInteger now = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();

        void run(long millis) {
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                now.decrementAndGet();
            }
        }
    }

    @ApplicationScoped
    public static class Exports {
        final Inside wide = new Inside();
        final Inside narrow = new Inside();
        final AtomicReference<Thread> ranOn = new AtomicReference<>();

        Inside wide() {
            return wide;
        }

        Inside narrowed() {
            return narrow;
        }

        AtomicReference<Thread> ranOn() {
            return ranOn;
        }

        @Synchronized(value = "export", permits = 3, timeout = "30s")
        public void export() {
            wide.run(3);
        }

        /** Three permits in the annotation, one by configuration. */
        @Synchronized(value = "narrow", permits = 3, timeout = "30s")
        public void narrow() {
            narrow.run(3);
        }

        @Synchronized(value = "report:{id}", timeout = "10s")
        public CompletionStage<String> report(long id) {
            ranOn.set(Thread.currentThread());
            return CompletableFuture.completedFuture("report " + id);
        }
    }

    @ApplicationScoped
    public static class Catalog {
        final AtomicInteger readers = new AtomicInteger();
        final AtomicInteger mostReaders = new AtomicInteger();
        final AtomicBoolean writerBesideOthers = new AtomicBoolean();
        final AtomicInteger writers = new AtomicInteger();

        int mostReaders() {
            return mostReaders.get();
        }

        boolean writerBesideOthers() {
            return writerBesideOthers.get();
        }

        @Synchronized(value = "catalog", type = LockType.READ, timeout = "30s")
        public void read() {
            mostReaders.accumulateAndGet(readers.incrementAndGet(), Math::max);
            if (writers.get() > 0) {
                writerBesideOthers.set(true);
            }
            pause();
            readers.decrementAndGet();
        }

        @Synchronized(value = "catalog", timeout = "30s")
        public void write() {
            if (writers.incrementAndGet() > 1 || readers.get() > 0) {
                writerBesideOthers.set(true);
            }
            pause();
            writers.decrementAndGet();
        }

        private static void pause() {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Inject
    Exports exports;

    @Inject
    Catalog catalog;

    @Inject
    Locks locks;

    @Test
    void permitsLetThatManyCallersInAtOnceAndTheConfigurationChangesTheirNumber() throws Exception {
        Together.run(8, t -> {
            for (int i = 0; i < 40; i++) {
                exports.export();
                exports.narrow();
            }
        });
        assertThat(exports.wide().most.get()).isEqualTo(3);
        assertThat(exports.narrowed().most.get()).isEqualTo(1);
    }

    @Test
    void readersRunTogetherAndAWriterAlone() throws Exception {
        Together.run(8, t -> {
            for (int i = 0; i < 40; i++) {
                if ((i + t) % 5 == 0) {
                    catalog.write();
                } else {
                    catalog.read();
                }
            }
        });
        assertThat(catalog.writerBesideOthers()).isFalse();
        assertThat(catalog.mostReaders()).isGreaterThan(1);
    }

    @Test
    void aMethodReturningAStageWaitsForItsLockWithoutTheCallingThread() throws Exception {
        // Held by no thread (taken asynchronously): this thread asking for the key waits for it, not re-entry.
        Lock held = locks.acquireAsync("report:7").toCompletableFuture().get(10, TimeUnit.SECONDS);
        CompletionStage<String> report;
        try {
            report = exports.report(7); // returns at once: the key is busy, the method waits on no thread
            Thread.sleep(100);
            assertThat(report.toCompletableFuture()).isNotDone();
        } finally {
            held.close();
        }
        assertThat(report.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("report 7");
        assertThat(exports.ranOn().get()).isNotSameAs(Thread.currentThread());
        // Free: it runs at once, on the calling thread.
        assertThat(exports.report(8).toCompletableFuture().get(10, TimeUnit.SECONDS))
                .isEqualTo("report 8");
        assertThat(exports.ranOn().get()).isSameAs(Thread.currentThread());
        assertThat(locks.held()).isEmpty();
    }

    @Test
    void cancellingAStageThatWaitsGivesTheWaitUp() throws Exception {
        Lock held = locks.acquireAsync("report:9").toCompletableFuture().get(10, TimeUnit.SECONDS);
        exports.ranOn().set(null);
        try {
            CompletionStage<String> report = exports.report(9);
            assertThat(report.toCompletableFuture().cancel(false)).isTrue();
        } finally {
            held.close();
        }
        Thread.sleep(200);
        assertThat(exports.ranOn().get())
                .as("the method ran although cancelled")
                .isNull();
        assertThat(locks.held()).isEmpty();
    }

    @Test
    void theProgrammaticFormsTakePermitsReadLocksAndWaitWithoutAThread() throws Exception {
        LockOptions twoPermits = LockOptions.defaults().withPermits(2).withAwait(false);
        try (Lock first = locks.acquire("bulkhead", twoPermits);
                Lock second = locks.acquireAsync("bulkhead", twoPermits)
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS)) {
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            // A third permit, from a thread that holds none: there is none left.
            CompletableFuture<Boolean> third = CompletableFuture.supplyAsync(
                    () -> locks.tryAcquire("bulkhead", twoPermits).isPresent());
            assertThat(third.get(10, TimeUnit.SECONDS)).isFalse();
        }
        Lock reader = locks.acquire("doc", LockOptions.defaults().withType(LockType.READ));
        CompletableFuture<Lock> writer =
                locks.acquireAsync("doc", LockOptions.defaults()).toCompletableFuture();
        Thread.sleep(100);
        assertThat(writer).isNotDone();
        reader.close();
        writer.get(10, TimeUnit.SECONDS).close();
        assertThat(locks.held()).isEmpty();
    }
}
