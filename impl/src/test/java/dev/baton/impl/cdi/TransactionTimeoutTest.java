package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.testing.BatonTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionManager;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.junit5.auto.AddBeanClasses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A transaction that times out is rolled back by Narayana's reaper on the reaper's thread while the
 * method still runs: the lock must stay held until the method has returned too, or a second caller
 * runs the method at the same time as the first.
 */
@BatonTest
@AddBeanClasses({TransactionTimeoutTest.Report.class, TransactionTest.Jta.class})
class TransactionTimeoutTest {

    @ApplicationScoped
    public static class Report {
        @Inject
        Locks locks;

        /** Runs until its transaction has been rolled back elsewhere, then says whether another caller could lock it. */
        @Synchronized("report")
        public Optional<Lock> outliveTheTransaction(CountDownLatch rolledBack) throws Exception {
            assertThat(rolledBack.await(60, TimeUnit.SECONDS))
                    .as("the reaper rolled the transaction back")
                    .isTrue();
            return tryElsewhere(locks, "report");
        }
    }

    private final TransactionManager tm = com.arjuna.ats.jta.TransactionManager.transactionManager();

    @Inject
    Report report;

    @Inject
    Locks locks;

    @AfterEach
    void noTransactionLeftOver() throws Exception {
        tm.setTransactionTimeout(0);
        if (tm.getStatus() != Status.STATUS_NO_TRANSACTION) {
            tm.suspend();
        }
    }

    @Test
    void aTransactionRolledBackByItsTimeoutKeepsTheLockUntilTheMethodReturns() throws Exception {
        tm.setTransactionTimeout(1);
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
        Optional<Lock> duringTheMethod = report.outliveTheTransaction(rolledBack);
        duringTheMethod.ifPresent(Lock::close);
        assertThat(duringTheMethod)
                .as("another caller got the lock while the method still ran")
                .isEmpty();

        Optional<Lock> after = tryElsewhere(locks, "report");
        assertThat(after)
                .as("released once both the method and the transaction are over")
                .isPresent();
        after.get().close();
    }

    /** Tries the key from another thread, as another request would (this thread may hold it). */
    static Optional<Lock> tryElsewhere(Locks locks, String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> locks.tryAcquire(key)).get(30, TimeUnit.SECONDS);
    }
}
