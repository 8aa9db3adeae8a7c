package dev.baton.impl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which threads Baton uses: in a server, the managed scheduler keeps time only, and the store calls (which
 * may hang on a dead connection) run on Baton's own pool of managed-thread-factory threads, never on the
 * server's shared executor. The server's naming context is stood in for by a {@link InitialContextFactory}.
 */
class RenewalExecutorsTest {

    static final Map<String, Object> NAMES = new ConcurrentHashMap<>();

    private final ScheduledThreadPoolExecutor serverScheduler = new ScheduledThreadPoolExecutor(1);
    private final AtomicInteger managedThreads = new AtomicInteger();
    private final ThreadFactory serverThreadFactory = runnable -> {
        managedThreads.incrementAndGet();
        Thread thread = new Thread(runnable, "managed-thread-" + managedThreads.get());
        thread.setDaemon(true);
        return thread;
    };

    @AfterEach
    void clean() {
        System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        NAMES.clear();
        serverScheduler.shutdownNow();
    }

    @Test
    void inAServerStoreCallsRunOnBatonsOwnPoolOfManagedThreads() throws Exception {
        NAMES.put("java:comp/DefaultManagedScheduledExecutorService", serverScheduler);
        NAMES.put("java:comp/DefaultManagedThreadFactory", serverThreadFactory);
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, ServerNaming.class.getName());

        RenewalExecutors executors = RenewalExecutors.detect();

        assertThat(executors.executor())
                .as("time is kept by the server's scheduler")
                .isSameAs(serverScheduler);
        assertThat(executors.storeCalls())
                .as("store calls do not run on the server's shared executor")
                .isNotSameAs(serverScheduler);
        assertThat(executors.owned()).isFalse();
        String thread = CompletableFuture.supplyAsync(
                        () -> Thread.currentThread().getName(), executors.storeCalls())
                .get(10, TimeUnit.SECONDS);
        assertThat(thread).as("a thread of the server's managed thread factory").startsWith("managed-thread-");

        executors.shutdown();
        assertThat(executors.storeCalls().isShutdown())
                .as("Baton's pool is stopped with the application")
                .isTrue();
        assertThat(serverScheduler.isShutdown())
                .as("the server's scheduler is the server's")
                .isFalse();
    }

    @Test
    void withoutAManagedThreadFactoryStoreCallsFallBackToTheManagedScheduler() {
        NAMES.put("java:comp/DefaultManagedScheduledExecutorService", serverScheduler);
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, ServerNaming.class.getName());

        RenewalExecutors executors = RenewalExecutors.detect();

        assertThat(executors.executor()).isSameAs(serverScheduler);
        assertThat(executors.storeCalls()).isSameAs(serverScheduler);
        executors.shutdown();
        assertThat(serverScheduler.isShutdown()).isFalse();
    }

    @Test
    void outsideAServerBatonUsesPrivateDaemonThreads() {
        RenewalExecutors executors = RenewalExecutors.detect();

        assertThat(executors.owned()).isTrue();
        assertThat(executors.storeCalls()).isNotSameAs(executors.executor());
        executors.shutdown();
        assertThat(executors.executor().isShutdown()).isTrue();
        assertThat(executors.storeCalls().isShutdown()).isTrue();
    }

    /** A naming context that knows {@link #NAMES}. */
    public static final class ServerNaming implements InitialContextFactory {
        @Override
        public Context getInitialContext(Hashtable<?, ?> environment) {
            return (Context) Proxy.newProxyInstance(
                    Context.class.getClassLoader(), new Class<?>[] {Context.class}, (proxy, method, args) -> {
                        if (method.getName().equals("lookup") && args[0] instanceof String name) {
                            Object found = NAMES.get(name);
                            if (found == null) {
                                throw new NameNotFoundException(name);
                            }
                            return found;
                        }
                        if (method.getName().equals("close")) {
                            return null;
                        }
                        throw new UnsupportedOperationException(method.getName());
                    });
        }
    }
}
