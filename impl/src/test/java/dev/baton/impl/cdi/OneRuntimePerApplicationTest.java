package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockException;
import dev.baton.Locks;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import java.lang.reflect.Proxy;
import java.util.Hashtable;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.spi.InitialContextFactory;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server may boot Baton's extension once per module of an EAR (TomEE does): two CDI containers, one copy of
 * Baton's classes. Both must use one lock runtime, found by the application's name ({@code java:app/AppName}):
 * one memory store, one token sequence. Here two Weld containers stand for the two modules, and a naming context of
 * the test's answers the application's name. Without the sharing, the second container's own memory store lets it
 * take a key the first holds.
 */
class OneRuntimePerApplicationTest {

    /** The name the naming context answers for {@code java:app/AppName}; null: no such name. */
    static volatile String applicationName;

    private final ExecutorService holderThread = Executors.newSingleThreadExecutor();

    /** A naming context that knows the application's name only. */
    public static final class AppNameContextFactory implements InitialContextFactory {
        @Override
        public Context getInitialContext(Hashtable<?, ?> environment) {
            return (Context) Proxy.newProxyInstance(
                    Context.class.getClassLoader(), new Class<?>[] {Context.class}, (proxy, method, args) -> {
                        if (method.getName().equals("lookup")
                                && ApplicationRuntimes.APPLICATION_NAME.equals(String.valueOf(args[0]))
                                && applicationName != null) {
                            return applicationName;
                        }
                        if (method.getName().equals("close")) {
                            return null;
                        }
                        throw new NameNotFoundException(String.valueOf(args == null ? method : args[0]));
                    });
        }
    }

    @BeforeEach
    void naming() {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, AppNameContextFactory.class.getName());
        TestConfig.install("baton.store=memory");
    }

    @AfterEach
    void clean() {
        System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        applicationName = null;
        TestConfig.uninstall();
        holderThread.shutdownNow();
    }

    @Test
    void twoContainersOfOneApplicationShareOneRuntime() throws Exception {
        applicationName = "shop";
        WeldContainer ejbModule = Deployments.weld().initialize();
        try (WeldContainer webModule = Deployments.weld().initialize()) {
            Locks ejbLocks = ejbModule.select(Locks.class).get();
            Locks webLocks = webModule.select(Locks.class).get();

            Lock held = holdOnAnotherThread(ejbLocks, "order:1");
            assertThat(webLocks.tryAcquire("order:1"))
                    .as("the web module sees the EJB module's lock: one store")
                    .isEmpty();
            long first = held.fencingToken();
            holderThread.submit(held::close).get();
            try (Lock next = webLocks.acquire("order:1")) {
                assertThat(next.fencingToken()).as("one token sequence").isGreaterThan(first);
            }

            ejbModule.shutdown();
            try (Lock afterOneLeft = webLocks.acquire("order:2")) {
                assertThat(afterOneLeft.isHeld())
                        .as("the runtime runs on while a container of the application runs")
                        .isTrue();
            }
        } finally {
            if (ejbModule.isRunning()) {
                ejbModule.shutdown();
            }
        }
    }

    @Test
    void theRuntimeStopsWithTheLastContainerAndANewDeploymentGetsAFreshOne() throws Exception {
        applicationName = "shop";
        Locks stoppedLocks;
        try (WeldContainer only = Deployments.weld().initialize()) {
            stoppedLocks = only.select(LockRuntime.class).get().locks("");
        }
        assertThatThrownBy(() -> stoppedLocks.acquire("order:1"))
                .as("the last container stopped the runtime")
                .isInstanceOf(LockException.class);
        try (WeldContainer again = Deployments.weld().initialize()) {
            try (Lock lock = again.select(Locks.class).get().acquire("order:1")) {
                assertThat(lock.isHeld())
                        .as("the application deployed again has a runtime of its own")
                        .isTrue();
            }
        }
    }

    @Test
    void applicationsWithOtherNamesOrNoNameHaveRuntimesOfTheirOwn() throws Exception {
        for (String[] names : new String[][] {{"shop", "billing"}, {null, null}}) {
            applicationName = names[0];
            try (WeldContainer first = Deployments.weld().initialize()) {
                applicationName = names[1];
                try (WeldContainer second = Deployments.weld().initialize()) {
                    Lock held = holdOnAnotherThread(first.select(Locks.class).get(), "order:1");
                    Optional<Lock> other = second.select(Locks.class).get().tryAcquire("order:1");
                    assertThat(other)
                            .as("application %s and %s: two memory stores", names[0], names[1])
                            .isPresent();
                    other.get().close();
                    holderThread.submit(held::close).get();
                }
            }
        }
    }

    private Lock holdOnAnotherThread(Locks locks, String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> locks.acquire(key), holderThread)
                .get();
    }
}
