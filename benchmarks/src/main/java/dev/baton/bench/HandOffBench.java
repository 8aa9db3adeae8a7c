package dev.baton.bench;

import dev.baton.Lock;
import dev.baton.impl.store.memory.MemoryLockStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.postgresql.PGConnection;

/**
 * Hand-off: the time from the holder starting to release a key to a waiter holding it. Each invocation
 * measures one hand-off (JMH sample time, so the report has p50 and p99): before it, untimed, the
 * benchmark thread takes the key, the waiter starts acquiring and the holder keeps the key
 * {@code holdMillis} (so a polling waiter is somewhere in its backoff, as it would be in production); timed,
 * the holder releases and the waiter's acquire returns; after it, untimed, the waiter gives the key back.
 *
 * <p>Who waits ({@code peer}):
 * <ul>
 * <li>{@code thread}: another thread of the same engine (one JVM; Baton's local queue);</li>
 * <li>{@code engine}: another engine with its own store and entity manager factory in this JVM: a second
 * application instance on the same database (for the memory store, two engines on one store);</li>
 * <li>{@code engine-poll}: as {@code engine}, but the waiter's engine is not shown the store's release
 * notification ({@link Unnotified}): it waits by polling alone (PostgreSQL, Redis);</li>
 * <li>{@code jvm}: {@link HandOffPeer}, a second JVM on the same database;</li>
 * <li>baselines, both sides raw JDBC on connections of their own: {@code raw-retry}, a waiter that runs
 * the raw upsert again and again without pause until it gets the key; {@code raw-notify} (PostgreSQL), a
 * waiter that {@code LISTEN}s and retries on each notification, the release notifying in the same
 * statement ({@code pg_notify} in a CTE: one round trip); for Redis ({@link RawRedis}), {@code raw-retry}
 * runs {@code SET NX PX} without pause and {@code raw-notify} is pub/sub: the waiter subscribes on a
 * connection of its own and retries on each message, the release script compares, deletes and
 * {@code PUBLISH}es in one round trip.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
public class HandOffBench {

    static final String TABLE = "bench_handoff";
    static final String CHANNEL = "bench_handoff";

    @Param({"memory", "h2", "postgresql", "mariadb", "redis"})
    public String store;

    @Param({"thread", "engine", "engine-poll", "jvm", "raw-retry", "raw-notify"})
    public String peer;

    @Param({"20"})
    public long holdMillis;

    private String key;
    private Bench.Instance holderInstance;
    private Bench.Instance waiterInstance;
    private RawLocks holderRaw;
    private RawLocks waiterRaw;
    private PreparedStatement notifyingRelease;
    private RawRedis.Subscription subscription;
    private Waiter waiter;
    private Lock held;

    @Setup(Level.Trial)
    public void start() throws Exception {
        key = "handoff-" + Bench.runId();
        switch (peer) {
            case "thread" -> {
                holderInstance = Bench.instance(store, TABLE, null);
                waiter = new Waiter.OnThread(
                        "waiter",
                        () -> holderInstance.engine().acquire(key, Bench.TTL_MILLIS, Bench.TIMEOUT_MILLIS, true));
            }
            case "engine", "engine-poll" -> {
                holderInstance = Bench.instance(store, TABLE, null);
                waiterInstance = Bench.instance(
                        store,
                        TABLE,
                        store.equals("memory") ? (MemoryLockStore) holderInstance.store() : null,
                        peer.equals("engine"));
                waiter = new Waiter.OnThread(
                        "waiter",
                        () -> waiterInstance.engine().acquire(key, Bench.TTL_MILLIS, Bench.TIMEOUT_MILLIS, true));
            }
            case "jvm" -> {
                if (!Bench.shareable(store)) {
                    throw new IllegalArgumentException(store + " cannot be reached from another JVM");
                }
                holderInstance = Bench.instance(store, TABLE, null);
                holderInstance
                        .engine()
                        .acquire("warm-up", Bench.TTL_MILLIS, 0, false)
                        .close(); // creates the table
                waiter = new HandOffPeer.Process(store, TABLE, key);
            }
            case "raw-retry", "raw-notify" -> {
                RawLocks.createTable(store);
                holderRaw = RawLocks.open(store);
                waiterRaw = RawLocks.open(store);
                if (peer.equals("raw-notify")) {
                    rawNotify();
                } else {
                    waiter = new Waiter.OnThread("waiter", () -> {
                        while (!waiterRaw.acquire(key, "waiter", Bench.TTL_MILLIS)) {
                            // a bare busy retry: the fastest a polling waiter can be
                        }
                        return () -> waiterRaw.release(key, "waiter");
                    });
                }
            }
            default -> throw new IllegalArgumentException(peer);
        }
    }

    private void rawNotify() throws SQLException {
        if (store.equals("redis")) {
            subscription = new RawRedis.Subscription();
            waiter = new Waiter.OnThread("waiter", () -> {
                while (!waiterRaw.acquire(key, "waiter", Bench.TTL_MILLIS)) {
                    subscription.awaitRelease(1_000); // blocks until a release publishes (or a second passes)
                }
                return () -> waiterRaw.release(key, "waiter");
            });
            return;
        }
        if (!store.equals("postgresql")) {
            throw new IllegalArgumentException("LISTEN/NOTIFY is PostgreSQL's, pub/sub Redis'");
        }
        notifyingRelease = holderRaw
                .connection()
                .prepareStatement("WITH r AS (" + RawLocks.releaseSql(store) + " RETURNING lock_key) SELECT pg_notify('"
                        + CHANNEL + "', lock_key) FROM r");
        Connection listening = waiterRaw.connection();
        try (Statement st = listening.createStatement()) {
            st.execute("LISTEN " + CHANNEL);
        }
        PGConnection pg = listening.unwrap(PGConnection.class);
        waiter = new Waiter.OnThread("waiter", () -> {
            while (!waiterRaw.acquire(key, "waiter", Bench.TTL_MILLIS)) {
                pg.getNotifications(1_000); // blocks until a release notifies (or a second passes)
            }
            return () -> waiterRaw.release(key, "waiter");
        });
    }

    @TearDown(Level.Trial)
    public void stop() {
        waiter.close();
        for (AutoCloseable c :
                new AutoCloseable[] {holderInstance, waiterInstance, subscription, holderRaw, waiterRaw}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // the fork ends
                }
            }
        }
    }

    @Setup(Level.Invocation)
    public void holdAndLetWait() throws InterruptedException {
        if (holderInstance != null) {
            held = holderInstance.engine().acquire(key, Bench.TTL_MILLIS, Bench.TIMEOUT_MILLIS, true);
        } else {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!holderRaw.acquire(key, "holder", Bench.TTL_MILLIS)) {
                if (System.nanoTime() > until) {
                    throw new IllegalStateException("the raw holder cannot take the key back");
                }
            }
        }
        waiter.startWaiting();
        Thread.sleep(holdMillis);
    }

    @Benchmark
    public void handOff() throws SQLException {
        if (held != null) {
            held.close();
            held = null;
        } else if (notifyingRelease != null) {
            notifyingRelease.setString(1, key);
            notifyingRelease.setString(2, "holder");
            try (ResultSet rs = notifyingRelease.executeQuery()) {
                rs.next();
            }
        } else if (subscription != null) {
            holderRaw.redis().releaseAndPublish(key, "holder");
        } else {
            holderRaw.release(key, "holder");
        }
        waiter.awaitHolding();
    }

    @TearDown(Level.Invocation)
    public void waiterGivesBack() {
        waiter.release();
    }
}
