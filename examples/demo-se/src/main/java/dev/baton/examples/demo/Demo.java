package dev.baton.examples.demo;

import dev.baton.Lock;
import dev.baton.LockLostException;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * Baton in a plain Java SE program under Weld SE: two workers contend for one key, fencing tokens grow,
 * a caller times out, another does not wait, and a holder whose store goes away loses its lock.
 */
public final class Demo {

    /** Held strongly: JUL forgets the level of a logger nobody references. */
    private static final java.util.logging.Logger BATON_LOG = java.util.logging.Logger.getLogger("dev.baton");

    private static final java.util.logging.Logger WELD_LOG = java.util.logging.Logger.getLogger("org.jboss.weld");

    private Demo() {}

    /**
     * Runs the demo and exits 0 when every step behaved as described.
     *
     * @param args ignored
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        // The demo narrates for itself; keep the library's and Weld's logs to errors.
        BATON_LOG.setLevel(java.util.logging.Level.SEVERE);
        WELD_LOG.setLevel(java.util.logging.Level.WARNING);
        try (WeldContainer container = new Weld().initialize()) {
            ReportService reports = container.select(ReportService.class).get();
            Locks locks = container.select(Locks.class).get();
            twoWorkers(reports);
            timeouts(reports);
            lostLock(
                    locks,
                    container.select(UnpluggableStore.class).get(),
                    container.select(LossObserver.class).get());
        }
        say("Done.");
    }

    private static void twoWorkers(ReportService reports) throws Exception {
        say("1. Two workers ask for report:2026-11-30 three times each; the lock lets one in at a time:");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (String worker : List.of("worker-A", "worker-B")) {
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < 3; i++) {
                        say("  " + reports.build(worker, "2026-11-30"));
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }
    }

    private static void timeouts(ReportService reports) throws Exception {
        say("2. worker-A recounts the inventory for 1 s; others knock:");
        CompletableFuture<Void> recount = CompletableFuture.runAsync(reports::recount);
        ReportService.sleep(100);
        try {
            reports.quickLook();
            throw new IllegalStateException("quickLook should have timed out");
        } catch (LockTimeoutException e) {
            say("  quickLook (timeout 300ms): LockTimeoutException: " + e.getMessage());
        }
        try {
            reports.peek();
            throw new IllegalStateException("peek should have failed at once");
        } catch (LockTimeoutException e) {
            say("  peek (await = false):      LockTimeoutException: " + e.getMessage());
        }
        recount.get(10, TimeUnit.SECONDS);
        reports.quickLook();
        say("  after the recount, quickLook gets the inventory at once");
    }

    private static void lostLock(Locks locks, UnpluggableStore store, LossObserver observer) throws Exception {
        say("3. A holder with a 600 ms lease; then its store becomes unreachable:");
        Lock lock = locks.manager("flaky").acquire("nightly-import");
        say("  holding " + lock.key() + " with fencing token " + lock.fencingToken() + ", renewed every 200 ms");
        ReportService.sleep(900);
        say("  still held after 900 ms (longer than the lease): " + lock.isHeld());
        store.unplug();
        say("  store unplugged; renewals now fail...");
        LockLostException reason = lock.whenLost().toCompletableFuture().get(10, TimeUnit.SECONDS);
        say("  lost: " + reason.getMessage());
        observer.awaitFirstLoss(10);
        say("  isHeld() = " + lock.isHeld() + "; checkHeld() throws " + LockLostException.class.getSimpleName());
        lock.close();
    }

    static void say(String line) {
        System.out.println(line);
    }
}
