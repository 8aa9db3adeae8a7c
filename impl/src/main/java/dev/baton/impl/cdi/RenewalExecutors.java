package dev.baton.impl.cdi;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.naming.InitialContext;

/**
 * Where renewals run: the server's default {@code ManagedScheduledExecutorService} when there is one,
 * else private daemon threads (Java SE, Weld SE, Helidon MP, tests): a scheduler that only keeps time,
 * and a pool for the store calls, which may block (one thread per call in flight, idle ones go away).
 *
 * @param executor the scheduler
 * @param storeCalls runs the renewal calls to the store
 * @param owned whether Baton created them (and so shuts them down)
 * @param description for the log
 */
record RenewalExecutors(ScheduledExecutorService executor, ExecutorService storeCalls, boolean owned, String description) {

    private static final String JNDI_NAME = "java:comp/DefaultManagedScheduledExecutorService";

    static RenewalExecutors detect() {
        try {
            Class.forName("jakarta.enterprise.concurrent.ManagedScheduledExecutorService", false,
                    RenewalExecutors.class.getClassLoader());
            Object found = new InitialContext().lookup(JNDI_NAME);
            if (found instanceof ScheduledExecutorService managed) {
                return new RenewalExecutors(managed, managed, false, JNDI_NAME);
            }
        } catch (Exception | LinkageError e) {
            // Not in a Jakarta EE server: use our own threads.
        }
        return privateThreads();
    }

    static RenewalExecutors privateThreads() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(2, daemons("baton-renewal-"));
        scheduler.setRemoveOnCancelPolicy(true);
        ExecutorService storeCalls = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), daemons("baton-store-call-"));
        return new RenewalExecutors(scheduler, storeCalls, true,
                "a private scheduler (2 daemon threads) and daemon threads for the store calls");
    }

    /** Stops the threads Baton created. */
    void shutdown() {
        if (owned) {
            executor.shutdownNow();
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
