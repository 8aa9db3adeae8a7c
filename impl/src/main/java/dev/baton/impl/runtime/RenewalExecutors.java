package dev.baton.impl.runtime;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Where renewals run: a scheduler that only keeps time, and a pool for the store calls, which may block
 * (one thread per call in flight, idle ones go away); the holders are told of losses on the store-call
 * pool too (user code, which may block as well).
 *
 * <p>In a Jakarta EE server the scheduler is the server's default {@code ManagedScheduledExecutorService},
 * and the store calls run on a pool of Baton's own whose threads come from the server's default
 * {@code ManagedThreadFactory}: a store call that hangs (a JDBC call on a dead connection) holds one of
 * Baton's threads, never one of the server's shared executor. Without a managed thread factory the store
 * calls run on the managed scheduler, as a last resort. Outside a server (Java SE, Weld SE, Helidon MP,
 * tests): private daemon threads for both.
 *
 * @param executor the scheduler
 * @param storeCalls runs the renewal calls to the store and the loss notifications
 * @param owned whether Baton created the scheduler (Java SE: then it shuts both down)
 * @param ownsStoreCalls whether Baton created the store-call pool (and so shuts it down)
 * @param description for the log
 */
public record RenewalExecutors(
        ScheduledExecutorService executor,
        ExecutorService storeCalls,
        boolean owned,
        boolean ownsStoreCalls,
        String description) {

    static final String SCHEDULER_JNDI_NAME = "java:comp/DefaultManagedScheduledExecutorService";
    static final String THREAD_FACTORY_JNDI_NAME = "java:comp/DefaultManagedThreadFactory";

    public static RenewalExecutors detect() {
        try {
            Class.forName(
                    "jakarta.enterprise.concurrent.ManagedScheduledExecutorService",
                    false,
                    RenewalExecutors.class.getClassLoader());
            InitialContext naming = new InitialContext();
            Object found = naming.lookup(SCHEDULER_JNDI_NAME);
            if (found instanceof ScheduledExecutorService managed) {
                ThreadFactory threads = managedThreads(naming);
                if (threads != null) {
                    return new RenewalExecutors(
                            managed,
                            storeCallPool(threads),
                            false,
                            true,
                            SCHEDULER_JNDI_NAME + " (timekeeping) and Baton's pool of " + THREAD_FACTORY_JNDI_NAME
                                    + " threads (store calls)");
                }
                return new RenewalExecutors(managed, managed, false, false, SCHEDULER_JNDI_NAME);
            }
        } catch (Exception | LinkageError e) {
            // Not in a Jakarta EE server: use our own threads.
        }
        return privateThreads();
    }

    /** The server's default managed thread factory, or null without one. */
    private static ThreadFactory managedThreads(InitialContext naming) {
        try {
            return naming.lookup(THREAD_FACTORY_JNDI_NAME) instanceof ThreadFactory factory ? factory : null;
        } catch (NamingException | RuntimeException e) {
            return null;
        }
    }

    public static RenewalExecutors privateThreads() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(2, daemons("baton-renewal-"));
        scheduler.setRemoveOnCancelPolicy(true);
        return new RenewalExecutors(
                scheduler,
                storeCallPool(daemons("baton-store-call-")),
                true,
                true,
                "a private scheduler (2 daemon threads) and daemon threads for the store calls");
    }

    /** One thread per call in flight, created on demand; idle ones go away after 30 s. */
    private static ExecutorService storeCallPool(ThreadFactory threads) {
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), threads);
    }

    /** Stops the threads Baton created. */
    public void shutdown() {
        if (owned) {
            executor.shutdownNow();
        }
        if (ownsStoreCalls) {
            storeCalls.shutdownNow();
        }
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
