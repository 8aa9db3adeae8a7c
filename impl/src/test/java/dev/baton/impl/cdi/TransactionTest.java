package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import dev.baton.Lock;
import dev.baton.LockAlreadyHeldException;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.WithConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With a real JTA transaction manager (Narayana): the lock of a method that runs in a transaction is
 * released after the transaction completes, and a lock lost meanwhile makes the commit fail.
 */
@BatonTest
@WithConfig("baton.renew-interval=50ms")
@AddBeanClasses({TransactionTest.Counter.class, TransactionTest.Jta.class, TransactionTest.Losses.class})
class TransactionTest {

    public static class Jta {
        @Produces
        @Singleton
        TransactionSynchronizationRegistry registry() {
            return new TransactionSynchronizationRegistryImple();
        }

        @Produces
        @Singleton
        FaultyStore store() {
            return new FaultyStore();
        }
    }

    @ApplicationScoped
    public static class Counter {
        @Inject
        Locks locks;

        @Synchronized("counter")
        public long increment() {
            return locks.current().orElseThrow().fencingToken();
        }

        @Synchronized("counter")
        public void incrementAgain() {}

        /** Its stage is complete when it returns, long before the transaction commits. */
        @Synchronized("async-counter")
        public java.util.concurrent.CompletionStage<Long> incrementAsync() {
            return CompletableFuture.completedFuture(
                    locks.current().orElseThrow().fencingToken());
        }
    }

    private final TransactionManager tm = com.arjuna.ats.jta.TransactionManager.transactionManager();

    @Inject
    Counter counter;

    @Inject
    Locks locks;

    @Inject
    FaultyStore store;

    @Inject
    Losses losses;

    @ApplicationScoped
    public static class Losses {
        private final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();

        void lost(@jakarta.enterprise.event.Observes dev.baton.event.LockLost event) {
            count.incrementAndGet();
        }

        int count() {
            return count.get();
        }
    }

    @AfterEach
    void noTransactionLeftOver() throws Exception {
        if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
            tm.rollback();
        }
    }

    @Test
    void theLockIsReleasedAfterCommitNotWhenTheMethodReturns() throws Exception {
        tm.begin();
        counter.increment();
        assertThat(tryElsewhere("counter"))
                .as("still held until the transaction completes")
                .isEmpty();
        tm.commit();
        Optional<Lock> after = tryElsewhere("counter");
        assertThat(after).isPresent();
        after.get().release();
    }

    /**
     * Jakarta Transactions leaves undefined what a synchronization's {@code afterCompletion} may do: a store
     * call there found the completed transaction still on the thread (Payara's JTS then failed to resume it
     * after the JPA store's {@code @Transactional(NOT_SUPPORTED)} call). The release runs on a thread of
     * Baton's, with no transaction, and is done when the commit returns.
     */
    @Test
    void theReleaseAfterCommitRunsOutsideTheCompletedTransactionAndIsDoneWhenTheCommitReturns() throws Exception {
        List<String> releasedOn = new CopyOnWriteArrayList<>();
        store.onRelease = () -> releasedOn.add(Thread.currentThread().getName() + ", transaction " + transactionHere());
        try {
            tm.begin();
            counter.increment();
            locks.callWithLock("programmatic-counter", lock -> lock.fencingToken());
            assertThat(releasedOn).as("nothing released before the commit").isEmpty();
            tm.commit();

            assertThat(store.releases)
                    .as("both released when the commit returned")
                    .anyMatch(release -> release.startsWith("counter "))
                    .anyMatch(release -> release.startsWith("programmatic-counter "));
            assertThat(releasedOn)
                    .hasSize(2)
                    .allMatch(where -> where.endsWith(", transaction none"), "no transaction on the releasing thread")
                    .noneMatch(where -> where.startsWith(Thread.currentThread().getName() + ","));
        } finally {
            store.onRelease = null;
        }
    }

    private String transactionHere() {
        try {
            Transaction transaction = tm.getTransaction();
            return transaction == null ? "none" : transaction.toString();
        } catch (SystemException e) {
            return e.toString();
        }
    }

    @Test
    void theLockIsReleasedAfterRollbackToo() throws Exception {
        tm.begin();
        counter.increment();
        tm.rollback();
        Optional<Lock> after = tryElsewhere("counter");
        assertThat(after).isPresent();
        after.get().release();
    }

    @Test
    void aCompletionStageMethodInATransactionKeepsItsLockUntilTheTransactionCompletes() throws Exception {
        tm.begin();
        assertThat(counter.incrementAsync().toCompletableFuture().join()).isPositive();
        assertThat(tryElsewhere("async-counter"))
                .as("still held until the transaction completes")
                .isEmpty();
        tm.commit();
        Optional<Lock> after = tryElsewhere("async-counter");
        assertThat(after).isPresent();
        after.get().release();
    }

    @Test
    void callingTheSameKeyAgainInOneTransactionFailsFast() throws Exception {
        tm.begin();
        counter.increment();
        assertThatThrownBy(counter::incrementAgain).isInstanceOf(LockAlreadyHeldException.class);
        tm.rollback();
    }

    @Test
    void aLockLostBeforeCommitRollsTheTransactionBack() throws Exception {
        tm.begin();
        counter.increment();
        store.renewAnswersFalse = true;
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> losses.count() > 0);
            assertThat(tm.getStatus()).isEqualTo(Status.STATUS_ACTIVE);
            assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
        } finally {
            store.renewAnswersFalse = false;
        }
    }

    /** Tries the key from another thread, as another request would (this thread may hold it). */
    private Optional<Lock> tryElsewhere(String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> locks.tryAcquire(key)).get(5, TimeUnit.SECONDS);
    }
}
