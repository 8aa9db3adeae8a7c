package dev.baton.bench;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.engine.EngineLocks;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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

/**
 * Uncontended acquire+release: each benchmark thread takes and gives back a key of its own, so nobody
 * ever waits. {@link #baton} goes through the {@code LockEngine} as the product does (acquire, then
 * {@code close()}), with the store's full work per cycle (owner token, fencing token, renewal scheduled and
 * cancelled). {@link #raw} is the baseline, run in the same fork on the same database: the upsert and the
 * update of {@link RawLocks} on a JDBC connection per thread in autocommit (a {@code ConcurrentHashMap}
 * for the memory store; for Redis, {@code SET NX PX} and a compare-and-delete script over Lettuce, see
 * {@link RawRedis}). The report divides the two throughputs: Baton / raw (1.0 = as fast as the
 * database allows). The runner runs it with 1 and with 4 threads.
 *
 * <p>{@code primitive} (issue 37) says what {@link #baton} takes: {@code mutex} (the default: the exclusive
 * cycle above, the baseline of the other three and the only one the {@code uncontended} measure runs),
 * {@code permit} (one of 3 permits, as {@code withPermits(3)}), {@code read} (a read lock) or {@code async}
 * ({@code acquireAsync(...).join()} of an exclusive lock with the mutex's arguments, a single ask without waiting, so
 * the ratio is the asynchronous path's own cost: the ask on the store-call pool, the future completed there and
 * joined here; then {@code close()} on the benchmark thread). The {@code shared} measure runs {@link #baton} alone
 * with all four and divides each by {@code mutex} of the same store and run.
 *
 * <p>Issue 38 adds two more for the {@code runtime} measure: {@code store} (the store's own cycle through the SPI,
 * no engine: {@code acquire} of a free key without waiting, then {@code release}, a new owner each time, as the
 * engine makes one) and {@code locks} (the programmatic API as an application calls it: {@code Locks.acquire(key)}
 * with the default options, i.e. allowed to wait up to the manager's timeout, then {@code Lock.close()}). The
 * {@code runtime} measure divides {@code locks} and {@code mutex} by {@code store} of the same run. {@code
 * store-bounded} is {@code store} with the bound {@code Locks.acquire(key)} gives its first ask (the manager's
 * timeout) instead of 0: what the bound alone costs the store (also in the {@code runtime} measure).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class UncontendedBench {

    @Param({"memory", "h2", "postgresql", "mariadb", "redis"})
    public String store;

    /** mutex, permit, read, async, store, store-bounded or locks: see the class. */
    @Param({"mutex"})
    public String primitive;

    Bench.Instance instance;
    private int sharedLimit;
    private boolean async;
    private boolean storeAlone;
    /** How long the {@code store} cycle's acquisition may wait: 0, or the manager's timeout for {@code store-bounded}. */
    private long storeBound;

    private Locks locks;
    final AtomicInteger threads = new AtomicInteger();
    final String run = Bench.runId();

    @Setup(Level.Trial)
    public void start() {
        instance = Bench.instance(store, "bench_uncontended", null);
        RawLocks.createTable(store);
        storeAlone = primitive.equals("store") || primitive.equals("store-bounded");
        storeBound =
                primitive.equals("store-bounded") ? instance.engine().settings().timeoutMillis() : 0;
        sharedLimit = storeAlone || primitive.equals("locks") ? Acquisition.EXCLUSIVE : Bench.sharedLimit(primitive);
        async = primitive.equals("async");
        locks = primitive.equals("locks")
                ? new EngineLocks(instance.engine(), name -> {
                    throw new IllegalArgumentException("one manager in the benchmark");
                })
                : null;
    }

    @TearDown(Level.Trial)
    public void stop() {
        instance.close();
    }

    /** One benchmark thread: its own key and its own raw connection. */
    @State(Scope.Thread)
    public static class Client {
        String key;
        String owner;
        RawLocks raw;
        /** The {@code store} primitive's owners: a new one per cycle. */
        long cycles;

        @Setup(Level.Trial)
        public void start(UncontendedBench bench) {
            int n = bench.threads.incrementAndGet();
            key = "uncontended-" + bench.run + "-" + n;
            owner = "raw-" + bench.run + "-" + n;
            raw = RawLocks.open(bench.store);
        }

        @TearDown(Level.Trial)
        public void stop() {
            raw.close();
        }
    }

    @Benchmark
    public long baton(Client client) {
        if (storeAlone) {
            return storeCycle(client);
        }
        if (locks != null) {
            try (Lock lock = locks.acquire(client.key)) {
                return lock.fencingToken();
            }
        }
        LockEngine engine = instance.engine();
        HeldLock lock = async
                ? engine.acquireAsync(
                                client.key,
                                Bench.TTL_MILLIS,
                                0,
                                false,
                                engine.settings().poll(),
                                sharedLimit)
                        .join()
                : engine.acquire(
                        client.key,
                        Bench.TTL_MILLIS,
                        0,
                        false,
                        engine.settings().poll(),
                        sharedLimit);
        long token = lock.fencingToken();
        lock.close();
        return token;
    }

    /** The store alone: what the engine asks of it for a try of a free key, and the release. */
    private long storeCycle(Client client) {
        String owner = client.owner + "-" + client.cycles++;
        AcquireResult result =
                instance.store().acquire(Acquisition.of(client.key, owner, Bench.TTL_MILLIS, storeBound));
        if (!result.isAcquired()) {
            throw new IllegalStateException("the store refused a key of this thread's own: " + client.key);
        }
        instance.store().release(client.key, owner);
        return result.fencingToken();
    }

    @Benchmark
    public boolean raw(Client client) {
        if (!client.raw.acquire(client.key, client.owner, Bench.TTL_MILLIS)) {
            throw new IllegalStateException("the raw baseline did not get its own key");
        }
        return client.raw.release(client.key, client.owner);
    }
}
