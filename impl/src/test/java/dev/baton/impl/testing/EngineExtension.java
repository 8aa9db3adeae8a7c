package dev.baton.impl.testing;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.engine.EngineMetrics;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.impl.time.EngineTime;
import dev.baton.spi.LockStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The setup of an engine test: its time (virtual, or real on a scheduler of its own), where store calls
 * run, and the engines it builds, closed (and the scheduler shut down) after each test. Use it as an
 * instance field, so each test gets its own:
 *
 * <pre>{@code
 * @RegisterExtension
 * final EngineExtension engines = EngineExtension.virtualTime();
 * ...
 * LockEngine engine = engines.engine(store).ttl(300).build();
 * engines.time().advanceMillis(100); // the first renewal runs, here and now
 * }</pre>
 *
 * With virtual time, store calls run on the thread that makes them (a renewal runs inside {@link
 * VirtualTime#advance}), unless the test passes threads of its own ({@link #storeCalls}): for a store call that
 * hangs.
 */
public final class EngineExtension implements AfterEachCallback {

    private final VirtualTime virtual;
    private final ScheduledExecutorService scheduler;
    private final EngineTime time;
    private volatile Executor storeCalls;
    private final List<LockEngine> engines = new CopyOnWriteArrayList<>();

    private EngineExtension(VirtualTime virtual, ScheduledExecutorService scheduler) {
        this.virtual = virtual;
        this.scheduler = scheduler;
        this.time = virtual != null ? virtual : EngineTime.system(scheduler);
        this.storeCalls = virtual != null ? Runnable::run : Engines.STORE_CALLS;
    }

    /** @return engines on a {@link VirtualTime}, store calls on the calling thread */
    public static EngineExtension virtualTime() {
        return new EngineExtension(new VirtualTime(), null);
    }

    /** @return engines on real time: a 2-thread scheduler (as Baton's own) and {@link Engines#STORE_CALLS} */
    public static EngineExtension realTime() {
        return realTime(2);
    }

    /**
     * @param schedulerThreads the threads of the scheduler (1: a renewal and the test's own scheduled task
     *     queue behind one another)
     * @return engines on real time: a scheduler of {@code schedulerThreads} threads and {@link Engines#STORE_CALLS}
     */
    public static EngineExtension realTime(int schedulerThreads) {
        return new EngineExtension(null, Engines.scheduler(schedulerThreads));
    }

    /** @return the virtual time the engines keep */
    public VirtualTime time() {
        if (virtual == null) {
            throw new IllegalStateException("these engines run on real time");
        }
        return virtual;
    }

    /** @return the time the engines keep, virtual or real */
    public EngineTime engineTime() {
        return time;
    }

    /** @return the real scheduler of these engines */
    public ScheduledExecutorService scheduler() {
        if (scheduler == null) {
            throw new IllegalStateException("these engines run on virtual time");
        }
        return scheduler;
    }

    /**
     * Runs the store calls of the engines built from now on (renewals, loss notifications) on {@code executor}.
     *
     * @param executor where
     * @return this
     */
    public EngineExtension storeCalls(Executor executor) {
        this.storeCalls = executor;
        return this;
    }

    /**
     * @param store the store
     * @return a builder of an engine on {@code store}: 30 s ttl, 1 s timeout, ttl/3 renewals by default
     */
    public Builder engine(LockStore store) {
        return new Builder(store);
    }

    /** @return an engine on {@code store} with the given defaults and nothing else set */
    public LockEngine engine(LockStore store, long ttlMillis, long timeoutMillis) {
        return engine(store).ttl(ttlMillis).timeout(timeoutMillis).build();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        try {
            for (LockEngine engine : engines) {
                try {
                    engine.close();
                } catch (RuntimeException e) {
                    // the test's store may be down on purpose: the next engine is closed anyway
                }
            }
        } finally {
            if (virtual != null) {
                virtual.shutdown();
            } else {
                scheduler.shutdownNow();
            }
        }
    }

    /** Settings of one engine. */
    public final class Builder {
        private final LockStore store;
        private long ttlMillis = 30_000;
        private long timeoutMillis = 1_000;
        private long renewIntervalMillis;
        private boolean interruptOnLoss;
        private String prefix = "";
        private PollPolicy poll = PollPolicy.DEFAULT;
        private int renewThreads = ManagerSettings.DEFAULT_RENEW_THREADS;
        private LockListener listener = LockListener.NONE;
        private EngineMetrics metrics = EngineMetrics.NONE;

        private Builder(LockStore store) {
            this.store = store;
        }

        public Builder ttl(long millis) {
            ttlMillis = millis;
            return this;
        }

        public Builder timeout(long millis) {
            timeoutMillis = millis;
            return this;
        }

        /** A fixed renewal interval instead of a third of the ttl. */
        public Builder renewEvery(long millis) {
            renewIntervalMillis = millis;
            return this;
        }

        public Builder interruptOnLoss() {
            interruptOnLoss = true;
            return this;
        }

        public Builder prefix(String value) {
            prefix = value;
            return this;
        }

        /** At most this many renewal calls in flight at once ({@code baton.renew-threads}). */
        public Builder renewThreads(int value) {
            renewThreads = value;
            return this;
        }

        public Builder poll(PollPolicy value) {
            poll = value;
            return this;
        }

        public Builder listener(LockListener value) {
            listener = value;
            return this;
        }

        public Builder metrics(EngineMetrics value) {
            metrics = value;
            return this;
        }

        /** @return the engine, closed after the test */
        public LockEngine build() {
            ManagerSettings settings = new ManagerSettings(
                    "",
                    Optional.empty(),
                    ttlMillis,
                    timeoutMillis,
                    prefix,
                    renewIntervalMillis,
                    interruptOnLoss,
                    poll,
                    renewThreads);
            LockEngine engine = new LockEngine(settings, store, time, storeCalls, listener, metrics);
            engines.add(engine);
            return engine;
        }
    }
}
