package dev.baton.tck.runtime.transactions;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.UserTransaction;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The work of {@link DataSourceStoreTransactionsTest}, on the JPA store over the default data source: each
 * method takes its lock inside a JTA transaction of the caller's, which also writes a row of the same database.
 */
@ApplicationScoped
public class DataSourceWork {

    /** How long a holder waits for what the test makes happen meanwhile, at most (a safety bound only). */
    static final long SAFETY_SECONDS = 60;

    @PersistenceContext(unitName = "baton-tck")
    EntityManager em;

    @Inject
    Locks locks;

    @Resource
    UserTransaction transaction;

    private final CompletableFuture<Long> holding = new CompletableFuture<>();
    private final CountDownLatch finish = new CountDownLatch(1);

    /**
     * Writes a row under the lock, then frees the lock by force (the store's row is released under the holder)
     * and waits until the holder's renewal has noticed: the commit must fail.
     *
     * @param name the counter
     * @return whether the lock was still held when the method returned (it must not be)
     */
    @jakarta.transaction.Transactional
    @Synchronized("jpa-lost:{name}")
    public boolean incrementThenLoseTheLock(String name) throws InterruptedException {
        Counters.increment(em, name);
        em.flush();
        Lock lock = locks.current().orElseThrow();
        if (!locks.forceRelease("jpa-lost:" + name)) {
            throw new IllegalStateException("the store did not show the lock of " + name + " as held");
        }
        // noticed within a renewal interval (100 ms here); the deadline is only a safety bound
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SAFETY_SECONDS);
        while (lock.isHeld() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return lock.isHeld();
    }

    /**
     * In a {@link UserTransaction}: takes the lock, writes a counter row (flushed), and rolls the transaction
     * back; the lock is left held (closed by {@link #acquireWriteAndRollBack}'s caller).
     *
     * @param key the lock's key
     * @param name the counter
     * @return the lock, still open
     */
    public Lock acquireWriteAndRollBack(String key, String name) throws Exception {
        transaction.begin();
        try {
            Lock lock = locks.acquire(key);
            Counters.increment(em, name);
            em.flush();
            return lock;
        } finally {
            transaction.rollback();
        }
    }

    /**
     * Holds a JTA transaction open: writes a counter row (flushed, so the database holds its row lock), takes
     * {@code key}, tells {@link #holding()}, and waits until {@link #finish()} before it closes the lock and
     * commits.
     *
     * @param key the lock's key
     * @return the lock's fencing token
     */
    @jakarta.transaction.Transactional
    public long holdInALongTransaction(String key) throws InterruptedException {
        try {
            Counters.increment(em, "long-transaction");
            em.flush();
            try (Lock lock = locks.acquire(key)) {
                holding.complete(lock.fencingToken());
                if (!finish.await(SAFETY_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("nobody finished the long transaction");
                }
                return lock.fencingToken();
            }
        } catch (RuntimeException | InterruptedException e) {
            holding.completeExceptionally(e);
            throw e;
        }
    }

    /** @return completed with the token of the lock {@link #holdInALongTransaction} holds, once it holds it */
    CompletableFuture<Long> holding() {
        return holding;
    }

    /** Lets {@link #holdInALongTransaction} close its lock and commit. */
    void finish() {
        finish.countDown();
    }
}
