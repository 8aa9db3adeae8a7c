package dev.baton.bench;

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
 * Issue 38's peers (not Baton, see {@link Peers}) on the uncontended cycle of {@link UncontendedBench}: each
 * benchmark thread takes and gives back a key of its own, through the library's own calls, on one application
 * instance of it (one pool or client for all threads, as Baton's engine has one store). The {@code peers} measure of
 * the runner runs it in the same JMH run as {@link UncontendedBench#raw} and {@link UncontendedBench#baton} of the
 * same store and thread count, and divides each by {@code raw}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PeersBench {

    /** h2, postgresql or mariadb for the JDBC peers; redis for the others. */
    @Param({"postgresql"})
    public String store;

    /** shedlock, si-jdbc, si-redis, si-redis-pubsub or redisson: see {@link Peers}. */
    @Param({"shedlock"})
    public String peer;

    Peers.Instance instance;
    final AtomicInteger threads = new AtomicInteger();
    final String run = Bench.runId();

    @Setup(Level.Trial)
    public void start() {
        instance = Peers.instance(peer, store, "peers-uncontended", "uncontended-" + peer);
    }

    @TearDown(Level.Trial)
    public void stop() {
        instance.close();
    }

    /** One benchmark thread's key. */
    @State(Scope.Thread)
    public static class Client {
        String key;

        @Setup(Level.Trial)
        public void start(PeersBench bench) {
            key = "peers-" + bench.run + "-" + bench.threads.incrementAndGet();
        }
    }

    /** The library's acquire (ShedLock: its only try) and release of a free key. */
    @Benchmark
    public void cycle(Client client) {
        instance.lock(client.key).close();
    }
}
