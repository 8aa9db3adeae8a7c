package dev.baton.tck.runtime.transactions;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * When the application starts, runs the first locked work of the application on a thread of the
 * application's own, as a message consumer or a scheduler library would: a plain thread, with no
 * Jakarta EE component context ({@code java:comp}) on most servers. The work is a {@code @Transactional}
 * increment under {@code @Synchronized}, so it is also the first use of Baton. Requests later find the
 * runtime as this thread left it.
 */
@ApplicationScoped
public class ApplicationThreadStartup {

    /** The counter the startup thread and the requests increment. */
    static final String COUNTER = "shared";

    private final CompletableFuture<String> outcome = new CompletableFuture<>();

    @Inject
    IncrementingCounter counter;

    void start(@Observes @Initialized(ApplicationScoped.class) Object started) {
        Thread thread = new Thread(this::firstLockedWork, "baton-tck-application-thread");
        thread.setDaemon(true);
        thread.start();
    }

    private void firstLockedWork() {
        try {
            long value = counter.increment(COUNTER);
            outcome.complete("done " + value + " (java:comp on this thread: " + javaComp() + ")");
        } catch (Throwable e) {
            outcome.complete("failed: " + e);
        }
    }

    /** Whether this thread can look up {@code java:comp} names (what an unmanaged thread usually cannot). */
    private static String javaComp() {
        try {
            new InitialContext().lookup("java:comp/TransactionSynchronizationRegistry");
            return "yes";
        } catch (NamingException | RuntimeException e) {
            return "no";
        }
    }

    /** @return "pending", "done &lt;value&gt; (...)" or "failed: ..." */
    String outcome() {
        return outcome.getNow("pending");
    }
}
