package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Lock;
import dev.baton.LockAlreadyHeldException;
import dev.baton.LockLostException;
import dev.baton.Locks;
import dev.baton.impl.testing.BatonTest;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.WithConfig;
import dev.baton.tck.Together;
import jakarta.inject.Inject;
import jakarta.transaction.RollbackException;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionManager;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The programmatic API ({@code Locks.callWithLock}, {@code acquire()}/{@code close()}) inside a real JTA
 * transaction (Narayana) follows the rules of {@code @Synchronized}: the lock is released in the store
 * only after the transaction completes, and a lock lost before the commit makes the commit fail.
 */
@BatonTest
@WithConfig("baton.renew-interval=50ms")
@AddBeanClasses({TransactionTest.Jta.class})
class ProgrammaticTransactionTest {

    private final TransactionManager tm = com.arjuna.ats.jta.TransactionManager.transactionManager();

    @Inject
    Locks locks;

    @Inject
    FaultyStore store;

    @AfterEach
    void noTransactionLeftOver() throws Exception {
        store.renewAnswersFalse = false;
        if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
            tm.rollback();
        }
    }

    @Test
    void callWithLockKeepsTheLockUntilTheTransactionCommits() throws Exception {
        tm.begin();
        long token = locks.callWithLock("api:call", lock -> lock.fencingToken());
        assertThat(token).isPositive();
        assertThat(tryElsewhere("api:call"))
                .as("another caller while the transaction has not committed")
                .isEmpty();
        tm.commit();
        releaseAfterwards("api:call");
    }

    @Test
    void aLockClosedInsideATransactionIsReleasedWhenItRollsBack() throws Exception {
        tm.begin();
        try (Lock lock = locks.acquire("api:closed")) {
            assertThat(lock.isHeld()).isTrue();
        }
        assertThat(tryElsewhere("api:closed"))
                .as("another caller while the transaction runs")
                .isEmpty();
        tm.rollback();
        releaseAfterwards("api:closed");
    }

    @Test
    void aLockTakenBeforeTheTransactionAndClosedInItIsReleasedAfterCommit() throws Exception {
        Lock lock = locks.acquire("api:before");
        tm.begin();
        lock.close();
        assertThat(tryElsewhere("api:before"))
                .as("another caller while the transaction runs")
                .isEmpty();
        tm.commit();
        releaseAfterwards("api:before");
    }

    @Test
    void aClosedLockIsNoLongerHeldForItsCallerAndItsKeyFailsFastInTheSameTransaction() throws Exception {
        tm.begin();
        Lock lock = locks.acquire("api:state");
        assertThat(lock.release()).as("released while held").isTrue();
        assertThat(lock.release()).as("a second release").isFalse();
        assertThat(lock.isHeld()).as("held after its holder released it").isFalse();
        assertThatThrownBy(lock::checkHeld)
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("released");
        assertThatThrownBy(() -> locks.acquire("api:state"))
                .as("the same key again in the same transaction")
                .isInstanceOf(LockAlreadyHeldException.class);
        tm.commit();
        releaseAfterwards("api:state");
    }

    @Test
    void aLockLostInsideCallWithLockMakesTheCommitFail() throws Exception {
        tm.begin();
        locks.runWithLock("api:lost", lock -> {
            store.renewAnswersFalse = true;
            await().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeld());
        });
        assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
    }

    @Test
    void aLockLostAfterTheWorkButBeforeTheCommitMakesTheCommitFail() throws Exception {
        tm.begin();
        Lock[] taken = new Lock[1];
        locks.runWithLock("api:lost-later", lock -> taken[0] = lock);
        // The store still has the lock (the release waits for the transaction), and it is still renewed:
        store.renewAnswersFalse = true;
        await().atMost(Duration.ofSeconds(10))
                .until(() -> taken[0].whenLost().toCompletableFuture().isDone());
        assertThatThrownBy(tm::commit).isInstanceOf(RollbackException.class);
    }

    /** The reaper rolls a timed-out transaction back on its own thread while the work still runs. */
    @Test
    void aTransactionRolledBackByItsTimeoutLeavesTheLockWithTheWorkUntilItReturns() throws Exception {
        tm.setTransactionTimeout(1);
        try {
            tm.begin();
            CountDownLatch rolledBack = new CountDownLatch(1);
            // A non-interposed synchronization: its afterCompletion runs after every interposed one (Baton's).
            tm.getTransaction().registerSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {}

                @Override
                public void afterCompletion(int status) {
                    rolledBack.countDown();
                }
            });
            Optional<Lock> duringTheWork = locks.callWithLock("api:timeout", lock -> {
                assertThat(rolledBack.await(60, TimeUnit.SECONDS))
                        .as("the reaper rolled the transaction back")
                        .isTrue();
                return tryElsewhere("api:timeout");
            });
            duringTheWork.ifPresent(Lock::close);
            assertThat(duringTheWork)
                    .as("another caller got the lock while the work still ran")
                    .isEmpty();
            releaseAfterwards("api:timeout");
        } finally {
            tm.setTransactionTimeout(0);
            if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
                tm.suspend();
            }
        }
    }

    @Test
    void outsideATransactionTheLockIsReleasedAtOnce() throws Exception {
        locks.runWithLock("api:no-tx", lock -> {});
        releaseAfterwards("api:no-tx");
    }

    /**
     * Read-modify-write increments of a transactional cell (an XA resource that applies the write when
     * the transaction commits), each in its own transaction with the lock taken by {@code callWithLock}
     * and some more work after it in the transaction: no update is lost.
     */
    @Test
    void concurrentTransactionsUnderCallWithLockLoseNoUpdate() throws Exception {
        TransactionalCell cell = new TransactionalCell();
        int threads = 4;
        int rounds = 25;
        Together.run(threads, t -> {
            for (int i = 0; i < rounds; i++) {
                tm.begin();
                try {
                    locks.runWithLock("api:cell", lock -> cell.write(tm, cell.read() + 1));
                    Thread.sleep(1); // more work in the transaction, after the lock block
                    tm.commit();
                } catch (Exception | Error e) {
                    if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
                        tm.rollback();
                    }
                    throw e;
                }
            }
        });
        assertThat(cell.read()).as("committed increments").isEqualTo(threads * rounds);
    }

    private void releaseAfterwards(String key) throws Exception {
        Optional<Lock> after = tryElsewhere(key);
        assertThat(after).as("another caller once the transaction completed").isPresent();
        after.get().close();
    }

    /** Tries the key from another thread, as another request would (this thread may hold it). */
    private Optional<Lock> tryElsewhere(String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> locks.tryAcquire(key)).get(30, TimeUnit.SECONDS);
    }

    /** A value that a transaction changes when it commits: a one-resource XA participant. */
    static final class TransactionalCell {
        private volatile int committed;
        final AtomicInteger commits = new AtomicInteger();

        int read() {
            return committed;
        }

        void write(TransactionManager tm, int value) throws Exception {
            tm.getTransaction().enlistResource(new Write(value));
        }

        private final class Write implements XAResource {
            private final int value;

            Write(int value) {
                this.value = value;
            }

            @Override
            public void commit(Xid xid, boolean onePhase) {
                committed = value;
                commits.incrementAndGet();
            }

            @Override
            public int prepare(Xid xid) {
                return XA_OK;
            }

            @Override
            public void rollback(Xid xid) {}

            @Override
            public void start(Xid xid, int flags) {}

            @Override
            public void end(Xid xid, int flags) {}

            @Override
            public void forget(Xid xid) {}

            @Override
            public Xid[] recover(int flag) {
                return new Xid[0];
            }

            @Override
            public boolean isSameRM(XAResource other) {
                return other == this;
            }

            @Override
            public int getTransactionTimeout() {
                return 0;
            }

            @Override
            public boolean setTransactionTimeout(int seconds) throws XAException {
                return false;
            }
        }
    }
}
