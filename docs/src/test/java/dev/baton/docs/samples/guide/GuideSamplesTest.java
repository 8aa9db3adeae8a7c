package dev.baton.docs.samples.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.LockTimeoutException;
import dev.baton.Locks;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.EngineLocks;
import dev.baton.impl.engine.Inspection;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.impl.engine.ReleaseDeferral;
import dev.baton.impl.leadership.Elections;
import dev.baton.impl.leadership.LeadershipListener;
import dev.baton.impl.store.file.FileLockStore;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.spi.LockStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the user guide's programmatic samples on Baton's engine without a CDI container: two "instances" (two
 * lock managers, each with a store of its own on one file-store directory), as two processes of one machine
 * would share it.
 */
class GuideSamplesTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService storeCalls = Executors.newCachedThreadPool();
    private final List<LockEngine> engines = new ArrayList<>();

    @TempDir
    Path directory;

    @AfterEach
    void close() {
        engines.forEach(LockEngine::close);
        scheduler.shutdownNow();
        storeCalls.shutdownNow();
    }

    private Locks manager(String name, LockStore store, Locks... others) {
        LockEngine engine = new LockEngine(
                new ManagerSettings(name, Optional.empty(), 30_000, 500, "", 0, false),
                store,
                scheduler,
                storeCalls,
                LockListener.NONE);
        engines.add(engine);
        return new EngineLocks(engine, wanted -> {
            for (Locks other : others) {
                if (other.name().equals(wanted)) {
                    return other;
                }
            }
            throw new IllegalArgumentException("no manager " + wanted);
        });
    }

    private ProgrammaticLocks samples(Locks locks) {
        ProgrammaticLocks samples = new ProgrammaticLocks();
        samples.locks = locks;
        return samples;
    }

    @Test
    void theProgrammaticSamplesRunAndTokensGrow() {
        Locks reports = manager("reports", new MemoryLockStore());
        ProgrammaticLocks here = samples(manager("", new FileLockStore(directory), reports));

        here.acquire("42");
        assertThat(here.tryOnce()).isTrue();
        assertThat(here.call("42")).startsWith("receipt-42-");
        here.withOptions();
        here.longWork();
        here.named();

        assertThat(here.journal)
                .hasSize(9)
                .anySatisfy(line -> assertThat(line).startsWith("weekly@"))
                .noneMatch(line -> line.startsWith("lost"));
        long first = token(here.journal.get(0));
        long receipt = Long.parseLong(here.call("42").substring("receipt-42-".length()));
        assertThat(receipt).as("order:42's tokens grow").isGreaterThan(first);
    }

    @Test
    void permitsReadLocksAndAsynchronousAcquisitionsRun() throws Exception {
        Locks locks = manager("", new MemoryLockStore());
        ProgrammaticLocks here = samples(locks);
        try (Lock busy = locks.acquire("order:7")) {
            CompletionStage<String> receipt = here.pay("7"); // waits for the busy key without a thread
            here.permitsAndReaders();
            assertThat(receipt.toCompletableFuture()).isNotDone();
            busy.close();
            assertThat(receipt.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("receipt-7");
        }
        assertThat(here.journal).hasSize(3).last().asString().startsWith("order 7@");
        assertThat(locks.held()).isEmpty();
    }

    @Test
    void aKeyHeldByOneInstanceIsRefusedToTheOther() {
        Locks one = manager("", new FileLockStore(directory));
        ProgrammaticLocks other = samples(manager("", new FileLockStore(directory)));

        try (Lock held = one.acquire("cleanup")) {
            assertThat(other.tryOnce())
                    .as("tryAcquire while the other instance holds it")
                    .isFalse();
            try (Lock reindex = one.acquire("reindex")) {
                assertThatThrownBy(other::withOptions).isInstanceOf(LockTimeoutException.class);
            }
        }
        assertThat(other.tryOnce()).as("after the release").isTrue();
    }

    @Test
    void theWarehouseRefusesAStaleToken() {
        Locks locks = manager("", new MemoryLockStore());
        Stock stock = new Stock();
        stock.locks = locks;
        stock.warehouse = new Warehouse();

        Lock stale = locks.acquire("stock:apple");
        long staleToken = stale.fencingToken();
        stale.close();
        locks.runWithLock("stock:apple", lock -> stock.restock("apple", 5)); // as @Synchronized would

        assertThat(stock.warehouse.quantity("apple")).isEqualTo(5);
        assertThatThrownBy(() -> stock.warehouse.write("apple", 1, staleToken))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stale writer");
    }

    @Test
    void theLeaderSamplesHandTheLeadershipOverAndTokensGrow() {
        LockEngine one = engine("", new FileLockStore(directory));
        LockEngine two = engine("", new FileLockStore(directory));
        OutboxRelay first = relay(one);
        within10s(first.relay::isLeader);
        OutboxRelay second = relay(two);
        first.relayPending();
        assertThat(second.relay.isLeader()).as("one leader").isFalse();

        first.handOver();
        within10s(second.relay::isLeader);
        second.relayPending();
        assertThat(first.relay.isLeader()).isFalse();
        long firstToken = token(first.published.get(0));
        long secondToken = token(second.published.get(second.published.size() - 1));
        assertThat(secondToken).as("the second term's token").isGreaterThan(firstToken);
    }

    private static void within10s(java.util.function.BooleanSupplier condition) {
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - end).as("within 10 s").isNegative();
            Thread.onSpinWait();
        }
    }

    private LockEngine engine(String name, LockStore store) {
        LockEngine engine = new LockEngine(
                new ManagerSettings(name, Optional.empty(), 30_000, 500, "", 0, false),
                store,
                scheduler,
                storeCalls,
                LockListener.NONE);
        engines.add(engine);
        return engine;
    }

    private OutboxRelay relay(LockEngine engine) {
        Elections elections = new Elections(engine, storeCalls, LeadershipListener.NONE);
        OutboxRelay relay = new OutboxRelay();
        relay.locks = new EngineLocks(
                engine,
                wanted -> {
                    throw new IllegalArgumentException("no manager " + wanted);
                },
                ReleaseDeferral.NONE,
                new Inspection(engine, false, () -> "test"),
                elections::lead);
        relay.join();
        return relay;
    }

    private static long token(String line) {
        return Long.parseLong(line.substring(line.indexOf('@') + 1));
    }
}
