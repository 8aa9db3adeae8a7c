package dev.baton.impl.testing;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.spi.LockStore;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** Builds engines for tests, without CDI. */
public final class Engines {

    private Engines() {}

    public static ScheduledExecutorService scheduler() {
        return scheduler(2);
    }

    public static ScheduledExecutorService scheduler(int threads) {
        return Executors.newScheduledThreadPool(threads, r -> {
            Thread t = new Thread(r, "test-renewal");
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs the engines' store calls (renewals): daemon threads, one per call in flight. */
    public static final ExecutorService STORE_CALLS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-store-call");
        t.setDaemon(true);
        return t;
    });

    public static LockEngine engine(
            LockStore store, ScheduledExecutorService scheduler, long ttlMillis, long timeoutMillis) {
        return engine(store, scheduler, ttlMillis, timeoutMillis, false, LockListener.NONE);
    }

    public static LockEngine engine(
            LockStore store,
            ScheduledExecutorService scheduler,
            long ttlMillis,
            long timeoutMillis,
            boolean interruptOnLoss,
            LockListener listener) {
        ManagerSettings settings =
                new ManagerSettings("", Optional.empty(), ttlMillis, timeoutMillis, "", 0, interruptOnLoss);
        return new LockEngine(settings, store, scheduler, STORE_CALLS, listener);
    }
}
