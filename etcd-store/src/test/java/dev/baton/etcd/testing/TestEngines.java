package dev.baton.etcd.testing;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.spi.LockStore;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/** Baton's lock engine (the runtime without CDI) on a store: what one application instance runs. */
public final class TestEngines {

    private static final ThreadFactory DAEMONS = runnable -> {
        Thread thread = new Thread(runnable, "etcd-test-engine");
        thread.setDaemon(true);
        return thread;
    };
    private static final ScheduledExecutorService TIMER = Executors.newScheduledThreadPool(2, DAEMONS);
    private static final ExecutorService STORE_CALLS = Executors.newCachedThreadPool(DAEMONS);

    private TestEngines() {}

    /**
     * @param store the store, closed with the engine
     * @param ttlMillis the default lease
     * @param timeoutMillis the default wait
     * @return an engine of the default manager
     */
    public static LockEngine engine(LockStore store, long ttlMillis, long timeoutMillis) {
        return new LockEngine(
                new ManagerSettings("", Optional.empty(), ttlMillis, timeoutMillis, "", 0, false),
                store,
                TIMER,
                STORE_CALLS,
                LockListener.NONE);
    }
}
