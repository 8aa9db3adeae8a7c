package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import com.arjuna.ats.internal.jta.transaction.arjunacore.TransactionSynchronizationRegistryImple;
import dev.baton.Synchronized;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.TestConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime starts with the application, on the container's thread, not on the thread of the first
 * lock: in a server only the container's threads are sure to see {@code java:comp}, where Baton finds
 * the transaction manager and the managed executors. What it finds there it keeps for good.
 */
class RuntimeStartTest {

    /** The thread on which Baton looked for the transaction registry. */
    static volatile Thread lookedUpOn;

    public static class Jta {
        @Produces
        @Singleton
        TransactionSynchronizationRegistry registry() {
            lookedUpOn = Thread.currentThread();
            return new TransactionSynchronizationRegistryImple();
        }

        @Produces
        @Singleton
        FaultyStore store() {
            return new FaultyStore();
        }
    }

    @ApplicationScoped
    public static class Report {
        @Synchronized("report")
        public String build() {
            return Thread.currentThread().getName();
        }
    }

    @AfterEach
    void clean() {
        TestConfig.uninstall();
        lookedUpOn = null;
    }

    @Test
    void theRuntimeLooksForJtaWhenTheApplicationStartsNotOnTheThreadOfTheFirstLock() throws Exception {
        TestConfig.install();
        try (WeldContainer container = Deployments.weld(Jta.class, Report.class).initialize()) {
            Thread boot = Thread.currentThread();
            Report report = container.select(Report.class).get();
            String firstLockOn = CompletableFuture.supplyAsync(report::build, runnable -> {
                        Thread plain = new Thread(runnable, "application-thread");
                        plain.start();
                    })
                    .get(30, TimeUnit.SECONDS);

            assertThat(firstLockOn).isEqualTo("application-thread");
            assertThat(lookedUpOn).as("the thread Baton looked for JTA on").isSameAs(boot);
        }
    }
}
