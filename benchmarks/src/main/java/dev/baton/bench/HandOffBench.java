package dev.baton.bench;

import dev.baton.Lock;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.spi.Acquisition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
 * Hand-off: the time from the holder starting to release a key to a waiter holding it ({@link #handOff()}; and the
 * release call alone, {@link #release()}). Each invocation
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
 * <li>issue 38's peers, not Baton ({@link Peers}): {@code si-jdbc} (Spring Integration's {@code JdbcLockRegistry}),
 * {@code si-redis} and {@code si-redis-pubsub} (its {@code RedisLockRegistry}, spin and pub/sub lock types) and
 * {@code redisson} (Redisson's {@code RLock}): two instances of the library in this JVM, each with its own pool or
 * client (and client id), the holder's on the benchmark thread, the waiter's blocked in the library's
 * {@code lock()}. ShedLock is not among them: it only tries, it cannot wait.</li>
 * </ul>
 *
 * <p>What is handed over ({@code pair}, issue 37; peers {@code engine} and {@code engine-poll} only): {@code mutex}
 * (the default: an exclusive lock to an exclusive waiter, the rows above and the baseline of the others),
 * {@code writer-reader} (a write lock to a reader), {@code reader-writer} (a read lock to a writer), {@code permit}
 * (one of {@value Bench#PERMITS} permits to a waiter that needs one: the holder's engine keeps the other
 * {@value Bench#PERMITS} − 1 for the whole trial, so the waiter waits for the benchmark thread's) and {@code async}
 * (an exclusive lock to an exclusive waiter that waits with {@code acquireAsync}: the hand-off ends when its future
 * completes, and the benchmark thread releases its lock).
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

    /** mutex, writer-reader, reader-writer, permit or async: see the class. */
    @Param({"mutex"})
    public String pair;

    private String key;
    private Bench.Instance holderInstance;
    private Bench.Instance waiterInstance;
    private RawLocks holderRaw;
    private RawLocks waiterRaw;
    private PreparedStatement notifyingRelease;
    private RawRedis.Subscription subscription;
    /** etcd's raw-notify: the waiter's watch on the key. */
    private AutoCloseable rawWatch;

    private Waiter waiter;
    private Lock held;
    /** The peer library's two instances (issue 38) and what the holder's holds. */
    private Peers.Instance peerHolder;

    private Peers.Instance peerWaiter;
    private Peers.Held peerHeld;
    /** After {@link #release()}: the waiter has not been seen holding yet (the tear-down waits for it). */
    private boolean waiterOnItsWay;

    /** The holder's shared limit (exclusive but for a reader or a permit). */
    private int holderLimit = Acquisition.EXCLUSIVE;
    /** The other permits, held by the holder's engine for the whole trial ({@code pair=permit}). */
    private final List<Lock> otherPermits = new ArrayList<>();

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
                engines();
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
            case "si-jdbc", "si-redis", "si-redis-pubsub", "redisson" -> {
                // two application instances of the library on the same database (same key prefix on Redis)
                String namespace = "peers-handoff-" + peer;
                peerHolder = Peers.instance(peer, store, namespace, "holder-" + peer);
                peerWaiter = Peers.instance(peer, store, namespace, "waiter-" + peer);
                waiter = new Waiter.OnThread("waiter", () -> peerWaiter.lock(key));
            }
            default -> throw new IllegalArgumentException(peer);
        }
        if (!pair.equals("mutex") && waiterInstance == null) {
            throw new IllegalArgumentException("pair=" + pair + " needs peer=engine or engine-poll, not " + peer);
        }
    }

    /** The two engines' sides of {@link #pair}: the holder's limit, the other permits, the waiter. */
    private void engines() {
        int waiterLimit;
        switch (pair) {
            case "mutex", "async" -> waiterLimit = Acquisition.EXCLUSIVE;
            case "writer-reader" -> waiterLimit = Bench.sharedLimit("reader");
            case "reader-writer" -> {
                holderLimit = Bench.sharedLimit("reader");
                waiterLimit = Acquisition.EXCLUSIVE;
            }
            case "permit" -> {
                holderLimit = Bench.sharedLimit("permit");
                waiterLimit = holderLimit;
                LockEngine holding = holderInstance.engine();
                for (int i = 1; i < Bench.PERMITS; i++) {
                    // bound to no thread, so the benchmark thread takes its own permit beside them
                    otherPermits.add(holding.acquireAsync(
                                    key,
                                    Bench.TTL_MILLIS,
                                    Bench.TIMEOUT_MILLIS,
                                    true,
                                    holding.settings().poll(),
                                    holderLimit)
                            .join());
                }
            }
            default -> throw new IllegalArgumentException("unknown pair " + pair);
        }
        LockEngine waiting = waiterInstance.engine();
        PollPolicy poll = waiting.settings().poll();
        waiter = pair.equals("async")
                ? new Waiter.Async(() -> waiting.acquireAsync(
                        key, Bench.TTL_MILLIS, Bench.TIMEOUT_MILLIS, true, poll, Acquisition.EXCLUSIVE))
                : new Waiter.OnThread(
                        "waiter",
                        () -> waiting.acquire(key, Bench.TTL_MILLIS, Bench.TIMEOUT_MILLIS, true, poll, waiterLimit));
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
        if (store.equals("zookeeper")) {
            // a watch on the holder's node: the waiter tries again when it is deleted
            org.apache.zookeeper.ZooKeeper zk = ((RawZooKeeper) waiterRaw.client()).zk();
            waiter = new Waiter.OnThread("waiter", () -> {
                while (!waiterRaw.acquire(key, "waiter", Bench.TTL_MILLIS)) {
                    java.util.concurrent.CountDownLatch deleted = new java.util.concurrent.CountDownLatch(1);
                    if (zk.exists(RawZooKeeper.path(key), event -> deleted.countDown()) != null) {
                        deleted.await(1, TimeUnit.SECONDS);
                    }
                }
                return () -> waiterRaw.release(key, "waiter");
            });
            return;
        }
        if (store.equals("etcd")) {
            // a watch on the key's deletions: the waiter tries again on each
            java.util.concurrent.Semaphore releases = new java.util.concurrent.Semaphore(0);
            rawWatch = ((RawEtcd) waiterRaw.client())
                    .client()
                    .getWatchClient()
                    .watch(
                            RawEtcd.key(key),
                            io.etcd.jetcd.options.WatchOption.builder()
                                    .withNoPut(true)
                                    .build(),
                            response -> releases.release());
            waiter = new Waiter.OnThread("waiter", () -> {
                while (!waiterRaw.acquire(key, "waiter", Bench.TTL_MILLIS)) {
                    releases.tryAcquire(1, TimeUnit.SECONDS);
                }
                return () -> waiterRaw.release(key, "waiter");
            });
            return;
        }
        if (!store.equals("postgresql")) {
            throw new IllegalArgumentException(
                    "LISTEN/NOTIFY is PostgreSQL's, pub/sub Redis', watches ZooKeeper's and etcd's");
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
        otherPermits.forEach(Lock::close);
        for (AutoCloseable c : new AutoCloseable[] {
            holderInstance, waiterInstance, subscription, rawWatch, holderRaw, waiterRaw, peerHolder, peerWaiter
        }) {
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
        if (peerHolder != null) {
            peerHeld = peerHolder.lock(key); // the waiter has given it back: free
        } else if (holderInstance != null) {
            LockEngine holding = holderInstance.engine();
            held = holding.acquire(
                    key,
                    Bench.TTL_MILLIS,
                    Bench.TIMEOUT_MILLIS,
                    true,
                    holding.settings().poll(),
                    holderLimit);
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
        releaseHeld();
        waiter.awaitHolding();
    }

    /**
     * The holder's release call alone, with a waiter of another instance (or a raw waiter) waiting for the key
     * (issue 38, target 2): what the release costs the caller when somebody waits, notification included. The
     * waiter's acquisition is left to the untimed tear-down.
     */
    @Benchmark
    public void release() throws SQLException {
        releaseHeld();
        waiterOnItsWay = true;
    }

    private void releaseHeld() throws SQLException {
        if (peerHeld != null) {
            peerHeld.close();
            peerHeld = null;
        } else if (held != null) {
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
    }

    @TearDown(Level.Invocation)
    public void waiterGivesBack() {
        if (waiterOnItsWay) {
            waiter.awaitHolding(); // once per hand-off: the second JVM's peer answers "held" once
            waiterOnItsWay = false;
        }
        waiter.release();
    }
}
