package dev.baton.bench;

import dev.baton.redis.RedisLockStore;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
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

/**
 * Batch renewal on Redis: one call renewing {@code locks} held leases, as the engine's renewal does with a
 * {@code BATCH_RENEW} store. {@link #baton} is the store's {@code renewAll} (one script call per 500 keys,
 * sent together, per-lease answers); {@link #raw} is {@link RawRedis}'s one script over the same number of
 * {@code SET NX PX} keys ({@code GET} == owner, then {@code PEXPIRE}), in the same fork on the same Redis.
 * Both must renew every lease, or the invocation fails. The report divides the two throughputs (batches/s):
 * Baton / raw. Measured at the store, not through the engine: the engine's renewal runs on its own clock
 * (a third of the lease), so a rate of it is the probe's business ({@code Probes renewal redis}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
public class RenewAllBench {

    @Param({"1000"})
    public int locks;

    private RedisLockStore store;
    private List<Lease> leases;
    private RawRedis raw;
    private String[] rawKeys;
    private String[] rawArgs;

    @Setup(Level.Trial)
    public void start() {
        String run = Bench.runId();
        store = RedisLockStore.builder(Bench.url("redis"))
                .keyPrefix("baton-bench:renew-all:")
                .build();
        leases = new ArrayList<>(locks);
        for (int i = 0; i < locks; i++) {
            Lease lease = new Lease("renew-" + run + "-" + i, "owner-" + run);
            AcquireResult taken = store.acquire(Acquisition.of(lease.key(), lease.owner(), Bench.TTL_MILLIS));
            if (!taken.isAcquired()) {
                throw new IllegalStateException("the benchmark did not get its own key " + lease.key());
            }
            leases.add(lease);
        }
        raw = RawRedis.open();
        rawKeys = new String[locks];
        rawArgs = new String[locks + 1];
        rawArgs[0] = Long.toString(Bench.TTL_MILLIS);
        for (int i = 0; i < locks; i++) {
            rawKeys[i] = "baton-bench:raw-renew:" + run + "-" + i;
            rawArgs[i + 1] = "owner-" + run;
        }
        raw.acquireAll(rawKeys, "owner-" + run, Bench.TTL_MILLIS);
    }

    @TearDown(Level.Trial)
    public void stop() {
        for (Lease lease : leases) {
            store.release(lease.key(), lease.owner());
        }
        store.close();
        raw.commands().del(rawKeys);
        raw.close();
    }

    @Benchmark
    public int baton() {
        int renewed = store.renewAll(leases, Bench.TTL_MILLIS, LockArguments.STORE_BOUND)
                .size();
        if (renewed != locks) {
            throw new IllegalStateException("renewed " + renewed + " of " + locks);
        }
        return renewed;
    }

    @Benchmark
    public int raw() {
        int renewed = raw.renewAll(rawKeys, rawArgs);
        if (renewed != locks) {
            throw new IllegalStateException("the raw baseline renewed " + renewed + " of " + locks);
        }
        return renewed;
    }
}
