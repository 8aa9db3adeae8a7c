package dev.baton.examples.demo;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicInteger;

/** The demo's business bean: one report at a time, whichever worker asks. */
@ApplicationScoped
public class ReportService {

    private final AtomicInteger running = new AtomicInteger();

    @Inject
    Locks locks;

    /**
     * Builds the daily report; only one worker at a time.
     *
     * @param worker who asks
     * @param day which report
     * @return what happened
     */
    @Synchronized("report:{day}")
    public String build(String worker, String day) {
        int concurrent = running.incrementAndGet();
        try {
            if (concurrent > 1) {
                throw new IllegalStateException("two workers inside report " + day + ": mutual exclusion is broken");
            }
            long token = locks.current().orElseThrow().fencingToken();
            sleep(150);
            return worker + " built report " + day + " with fencing token " + token + " (workers inside: " + concurrent
                    + ")";
        } finally {
            running.decrementAndGet();
        }
    }

    /** Holds the inventory for a while. */
    @Synchronized("inventory")
    public void recount() {
        sleep(1_000);
    }

    /** Waits at most 300 ms for the inventory. */
    @Synchronized(value = "inventory", timeout = "300ms")
    public void quickLook() {}

    /** Does not wait at all for the inventory. */
    @Synchronized(value = "inventory", await = false)
    public void peek() {}

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
