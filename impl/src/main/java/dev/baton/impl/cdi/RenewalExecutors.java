package dev.baton.impl.cdi;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import javax.naming.InitialContext;

/**
 * Where renewals run: the server's default {@code ManagedScheduledExecutorService} when there is one,
 * else a private scheduler of daemon threads (Java SE, Weld SE, tests).
 *
 * @param executor the scheduler
 * @param owned whether Baton created it (and so shuts it down)
 * @param description for the log
 */
record RenewalExecutors(ScheduledExecutorService executor, boolean owned, String description) {

    private static final String JNDI_NAME = "java:comp/DefaultManagedScheduledExecutorService";

    static RenewalExecutors detect() {
        try {
            Class.forName("jakarta.enterprise.concurrent.ManagedScheduledExecutorService", false,
                    RenewalExecutors.class.getClassLoader());
            Object found = new InitialContext().lookup(JNDI_NAME);
            if (found instanceof ScheduledExecutorService managed) {
                return new RenewalExecutors(managed, false, JNDI_NAME);
            }
        } catch (Exception | LinkageError e) {
            // Not in a Jakarta EE server: use our own threads.
        }
        return privateScheduler();
    }

    static RenewalExecutors privateScheduler() {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory threads = runnable -> {
            Thread thread = new Thread(runnable, "baton-renewal-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2, threads);
        executor.setRemoveOnCancelPolicy(true);
        return new RenewalExecutors(executor, true, "a private scheduler (2 daemon threads)");
    }
}
