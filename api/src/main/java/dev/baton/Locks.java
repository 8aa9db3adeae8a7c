package dev.baton;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/**
 * The programmatic API: inject it and take locks by key.
 *
 * <pre>{@code
 * @Inject Locks locks;
 *
 * try (Lock lock = locks.acquire("order:" + id)) {          // waits up to the timeout
 *     repository.save(order, lock.fencingToken());
 * }
 *
 * locks.tryAcquire("cleanup").ifPresent(lock -> { ... });   // tries once
 *
 * Receipt r = locks.callWithLock("order:" + id, lock -> pay(order, lock.fencingToken()));
 * }</pre>
 *
 * The injected instance is the default lock manager; {@link #manager(String)} returns a named one.
 * Locks are not reentrant: acquiring a key the calling thread already holds fails at once with
 * {@link LockAlreadyHeldException}.
 *
 * <p>Inside a JTA transaction the rules of {@link Synchronized} hold: a lock taken or released
 * ({@link Lock#close()}, the end of {@code callWithLock}/{@code runWithLock}) while a transaction is active
 * on the thread stays in the store until that transaction has completed, so the next holder sees what it
 * committed; and if the lock is lost before the transaction commits, the transaction is marked
 * rollback-only. For its holder a released lock is gone at once ({@link Lock#isHeld()} is false); asking
 * for the same key again in the same transaction fails with {@link LockAlreadyHeldException}.
 *
 * @see Synchronized
 */
public interface Locks {

    /**
     * The name of this lock manager: empty for the default one.
     *
     * @return the manager name
     */
    String name();

    /**
     * Returns a named lock manager, declared in {@code baton.managers}.
     *
     * @param name the manager name
     * @return the manager
     * @throws IllegalArgumentException if no manager of that name is configured
     */
    Locks manager(String name);

    /**
     * Acquires the lock, waiting up to the manager's default timeout.
     *
     * @param key the key: 1 to 500 characters (with the prefix), valid UTF-16
     * @return the held lock; close it to release
     * @throws LockTimeoutException if the lock was not acquired in time
     * @throws LockInterruptedException if the thread was interrupted while waiting
     * @throws LockAlreadyHeldException if the calling thread already holds this key
     * @throws LockStoreException if the store failed
     * @throws IllegalArgumentException if the key is invalid
     */
    Lock acquire(String key);

    /**
     * Acquires the lock with these options.
     *
     * @param key the key
     * @param options ttl, timeout, whether to wait, read or write and permits, and how to poll the store while
     *     waiting
     * @return the held lock; close it to release
     * @throws LockTimeoutException if the lock was not acquired in time (or at once, not waiting)
     * @throws LockInterruptedException if the thread was interrupted while waiting
     * @throws LockAlreadyHeldException if the calling thread already holds this key (in either mode: a read lock
     *     is not upgraded)
     * @throws UnsupportedOperationException if the options ask for a read lock or permits and the manager's store
     *     keeps no shared leases
     * @throws LockStoreException if the store failed
     * @throws IllegalArgumentException if the key is invalid
     */
    Lock acquire(String key, LockOptions options);

    /**
     * Acquires the lock without holding a thread while it waits, up to the manager's default timeout. See
     * {@link #acquireAsync(String, LockOptions)}.
     *
     * @param key the key
     * @return a stage completed with the held lock
     * @throws LockException if this manager has no store or is shut down
     * @throws IllegalArgumentException if the key is invalid
     */
    CompletionStage<Lock> acquireAsync(String key);

    /**
     * Acquires the lock without holding a thread while it waits: the store is asked on Baton's threads, and between
     * two asks the acquisition waits on Baton's timers and on the key's releases (in this JVM, or notified by the
     * store). The lock belongs to its handle, not to a thread: any thread may release it (a virtual thread, a
     * reactive chain, a JAX-RS asynchronous response), and this acquisition does not count as held by the calling
     * thread. Close it when done, as any lock.
     *
     * <p>The stage completes on a Baton thread (do not block in callbacks attached without an executor) with the
     * lock, or with a {@link LockTimeoutException} (also at once, for options that do not wait), a
     * {@link LockStoreException}, or a {@link LockException} if the manager shuts down meanwhile. Cancelling it
     * ({@code toCompletableFuture().cancel(..)}) gives up the wait, and gives back a lock granted at that moment.
     * A lock taken this way is not tied to a JTA transaction of the calling thread.
     *
     * @param key the key
     * @param options ttl, timeout, whether to wait, type and permits, how to poll
     * @return a stage completed with the held lock
     * @throws LockException if this manager has no store or is shut down
     * @throws UnsupportedOperationException if the options ask for a read lock or permits and the manager's store
     *     keeps no shared leases
     * @throws IllegalArgumentException if the key is invalid
     */
    CompletionStage<Lock> acquireAsync(String key, LockOptions options);

    /**
     * Tries once to acquire the lock.
     *
     * @param key the key
     * @return the held lock, or empty when another holder has it
     * @throws LockAlreadyHeldException if the calling thread already holds this key
     * @throws LockStoreException if the store failed
     * @throws IllegalArgumentException if the key is invalid
     */
    Optional<Lock> tryAcquire(String key);

    /**
     * Tries once to acquire the lock, with this ttl (the options' timeout is ignored).
     *
     * @param key the key
     * @param options the options (ttl)
     * @return the held lock, or empty when another holder has it
     */
    Optional<Lock> tryAcquire(String key, LockOptions options);

    /**
     * Runs {@code work} under the lock and returns its result; the lock is released afterwards, also
     * when the work throws.
     *
     * @param key the key
     * @param work the work, given the held lock (for its fencing token)
     * @param <T> the result type
     * @param <E> what the work may throw
     * @return the work's result
     * @throws E what the work threw
     * @throws LockTimeoutException if the lock was not acquired in time
     */
    <T, E extends Exception> T callWithLock(String key, LockedWork<T, E> work) throws E;

    /**
     * Runs {@code work} under the lock, acquired with these options.
     *
     * @param key the key
     * @param options ttl, timeout, whether to wait, and how to poll the store while waiting
     * @param work the work, given the held lock
     * @param <T> the result type
     * @param <E> what the work may throw
     * @return the work's result
     * @throws E what the work threw
     * @throws LockTimeoutException if the lock was not acquired in time
     */
    <T, E extends Exception> T callWithLock(String key, LockOptions options, LockedWork<T, E> work) throws E;

    /**
     * Runs a {@link Callable} under the lock and returns its result; the lock is released afterwards.
     *
     * @param key the key
     * @param work the work
     * @param <T> the result type
     * @return the work's result
     * @throws Exception what the work threw
     * @throws LockTimeoutException if the lock was not acquired in time
     */
    <T> T callWithLock(String key, Callable<T> work) throws Exception;

    /**
     * Runs {@code action} under the lock; the lock is released afterwards, also when it throws.
     *
     * @param key the key
     * @param action the action, given the held lock
     * @param <E> what the action may throw
     * @throws E what the action threw
     * @throws LockTimeoutException if the lock was not acquired in time
     */
    <E extends Exception> void runWithLock(String key, LockedAction<E> action) throws E;

    /**
     * Runs {@code action} under the lock, acquired with these options.
     *
     * @param key the key
     * @param options ttl, timeout, whether to wait, and how to poll the store while waiting
     * @param action the action, given the held lock
     * @param <E> what the action may throw
     * @throws E what the action threw
     * @throws LockTimeoutException if the lock was not acquired in time
     */
    <E extends Exception> void runWithLock(String key, LockOptions options, LockedAction<E> action) throws E;

    /**
     * Joins the election {@code name} of this lock manager, or returns this instance's candidacy in it if it has
     * joined already (and not left it since). The candidacy stands by at once, on one of Baton's threads, and
     * is granted the leadership when it gets the lock {@value Leadership#KEY_PREFIX}{@code <name>}; it is closed
     * when the application stops. See {@link Leadership}.
     *
     * @param name the election's name: not empty, no longer than a key allows
     * @return this instance's candidacy
     * @throws IllegalArgumentException if the name is empty or not a valid key
     * @throws NullPointerException if it is null
     * @throws LockException if this manager has no store or is shut down
     */
    Leadership lead(String name);

    /**
     * The lock of the innermost {@link Synchronized} invocation (or {@code callWithLock}/
     * {@code runWithLock} block) running on this thread, of any manager.
     *
     * @return the current lock, or empty outside of one
     */
    Optional<Lock> current();

    /**
     * Who holds {@code key} now, as the store tells it: the holder's fencing token, its remaining lease by
     * the store's clock, and whether it is this lock manager in this application. The holder may be any
     * instance sharing the store. Reading changes nothing (not the lease, not who waits).
     *
     * @param key the key, as for {@link #acquire(String)} (the manager's prefix is added)
     * @return the holder, or empty when the key is free (never taken, released or expired)
     * @throws UnsupportedOperationException if the manager's store cannot tell (it does not declare the
     *     {@code INSPECT} capability); the message names the store
     * @throws LockStoreException if the store failed
     * @throws IllegalArgumentException if the key is invalid
     */
    Optional<LockInfo> inspect(String key);

    /**
     * The locks this lock manager holds in this application now, with their remaining leases as this
     * process estimates them. Works with every store.
     *
     * @return an immutable snapshot, in no particular order
     */
    List<LockInfo> held();

    /**
     * Frees {@code key} whoever holds it, in whichever instance: an administrative action for a lock whose
     * holder is stuck. Off unless {@code baton.admin.force-release=true}; with
     * {@code baton.admin.force-release.role} set, allowed only to a caller in one of those roles, as the container's
     * security context tells (Jakarta Security, or an enterprise bean's context). Each use is logged at WARN with
     * the calling thread and principal (and the role that allowed it). The freed key's next acquisition still gets a greater fencing
     * token, and the holder, if it is still running, learns at its next renewal that its lock is lost
     * ({@link Lock#whenLost()}, the {@code LockLost} event) as with any loss. Use it only when the holder's
     * work is known to be dead or harmless: until it is told, it may still write (fencing tokens protect
     * resources that check them).
     *
     * @param key the key, as for {@link #acquire(String)}
     * @return true if a live lock held the key and this call freed it; false if the key was free
     * @throws LockConfigurationException if force-release is not enabled (the message names the key to set), or a
     *     role is configured and no security context on this thread can tell the caller's roles
     * @throws SecurityException if a role is configured and the caller is in none of them
     * @throws UnsupportedOperationException if the manager's store cannot inspect locks
     * @throws LockStoreException if the store failed
     * @throws IllegalArgumentException if the key is invalid
     */
    boolean forceRelease(String key);

    /**
     * Work that runs under a lock and returns a result.
     *
     * @param <T> the result type
     * @param <E> what the work may throw
     */
    @FunctionalInterface
    interface LockedWork<T, E extends Exception> {
        /**
         * Does the work.
         *
         * @param lock the held lock
         * @return the result
         * @throws E on failure
         */
        T call(Lock lock) throws E;
    }

    /**
     * Work that runs under a lock.
     *
     * @param <E> what the work may throw
     */
    @FunctionalInterface
    interface LockedAction<E extends Exception> {
        /**
         * Does the work.
         *
         * @param lock the held lock
         * @throws E on failure
         */
        void run(Lock lock) throws E;
    }
}
