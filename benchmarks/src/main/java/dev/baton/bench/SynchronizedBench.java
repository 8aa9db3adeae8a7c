package dev.baton.bench;

import dev.baton.bench.cdi.Counter;
import dev.baton.bench.cdi.NoopInterceptor;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@code @Synchronized} over a plain call, memory store, one thread: a Weld SE container (Baton's extension
 * from the class path, {@code baton.store=memory}) and one {@code @ApplicationScoped} bean whose three methods
 * do the same work. {@link #plain} is the call through Weld's client proxy; {@link #intercepted} adds one
 * interceptor that only proceeds (Weld's own interception, the baseline); {@link #locked} is
 * {@code @Synchronized} on a fixed key. The report gives the overheads over the plain call: Baton's
 * ({@code locked - plain}) beside Weld's ({@code intercepted - plain}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SynchronizedBench {

    private WeldContainer container;
    private Counter counter;

    @Setup(Level.Trial)
    public void start() {
        System.setProperty("baton.store", "memory");
        container = new Weld("bench")
                .disableDiscovery()
                .addExtension(new dev.baton.impl.cdi.BatonExtension())
                .addBeanClasses(Counter.class, NoopInterceptor.class)
                .initialize();
        counter = container.select(Counter.class).get();
        // the measure means nothing if the interceptor is not there: the key must be taken inside
        dev.baton.Locks locks = container.select(dev.baton.Locks.class).get();
        if (!counter.lockedSees(locks).equals("bench:counter")) {
            throw new IllegalStateException("@Synchronized is not intercepted");
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        container.close();
    }

    @Benchmark
    public long plain() {
        return counter.plain();
    }

    @Benchmark
    public long intercepted() {
        return counter.intercepted();
    }

    @Benchmark
    public long locked() {
        return counter.locked();
    }
}
