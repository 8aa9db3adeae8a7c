package dev.baton.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The peer of issue 11: Redisson's {@code RLock} on the same Redis, each benchmark thread locking and
 * unlocking a lock of its own, like {@link UncontendedBench}. {@code lock()} without a lease time, so
 * Redisson's watchdog keeps the lock alive as Baton's engine renews its leases. The runner divides its
 * throughput by {@link UncontendedBench#raw} on {@code redis} with the same number of threads, from the
 * same run. One {@code RedissonClient} per fork, as an application has one.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RedissonBench {

    RedissonClient redisson;
    final AtomicInteger threads = new AtomicInteger();
    final String run = Bench.runId();

    @Setup(Level.Trial)
    public void start() {
        Config config = new Config();
        config.useSingleServer().setAddress(Bench.url("redis"));
        redisson = Redisson.create(config);
    }

    @TearDown(Level.Trial)
    public void stop() {
        redisson.shutdown();
    }

    /** One benchmark thread's lock. */
    @State(Scope.Thread)
    public static class Client {
        RLock lock;

        @Setup(Level.Trial)
        public void start(RedissonBench bench) {
            lock = bench.redisson.getLock("baton-bench:redisson:" + bench.run + "-" + bench.threads.incrementAndGet());
        }
    }

    @Benchmark
    public void redisson(Client client) {
        client.lock.lock();
        client.lock.unlock();
    }
}
