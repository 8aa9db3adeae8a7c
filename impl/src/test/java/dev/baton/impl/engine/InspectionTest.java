package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.LockInfo;
import dev.baton.LockLostException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code Locks.inspect}, {@code held} and {@code forceRelease}, on two engines sharing one store: two instances. */
class InspectionTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    private final MemoryLockStore store = new MemoryLockStore();
    private final LockEngine here = engines.engine(store, 300, 1_000);
    private final LockEngine there = engines.engine(store, 300, 1_000);

    private static EngineLocks locks(LockEngine engine, boolean forceRelease) {
        return new EngineLocks(
                engine,
                name -> null,
                ReleaseDeferral.NONE,
                new Inspection(
                        engine,
                        forceRelease,
                        () -> "thread '" + Thread.currentThread().getName() + "'"));
    }

    @Test
    void inspectTellsTheHolderAndWhetherItIsThisInstance() {
        EngineLocks mine = locks(here, false);
        EngineLocks theirs = locks(there, false);
        assertThat(mine.inspect("free")).isEmpty();

        try (var lock = mine.acquire("order:1")) {
            Optional<LockInfo> fromHere = mine.inspect("order:1");
            Optional<LockInfo> fromThere = theirs.inspect("order:1");

            assertThat(fromHere).hasValueSatisfying(info -> {
                assertThat(info.key()).isEqualTo("order:1");
                assertThat(info.fencingToken()).isEqualTo(lock.fencingToken());
                assertThat(info.remainingLease()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(300));
                assertThat(info.heldHere()).isTrue();
            });
            assertThat(fromThere).hasValueSatisfying(info -> {
                assertThat(info.fencingToken()).isEqualTo(lock.fencingToken());
                assertThat(info.heldHere()).as("held by the other instance").isFalse();
            });
        }
        assertThat(mine.inspect("order:1")).as("after the release").isEmpty();
    }

    @Test
    void heldIsAnImmutableSnapshotOfThisManagersLocks() {
        EngineLocks mine = locks(here, false);
        EngineLocks theirs = locks(there, false);
        var a = mine.acquire("a");
        var b = mine.acquire("b");
        var elsewhere = theirs.acquire("c");

        List<LockInfo> held = mine.held();
        a.close();

        assertThat(held).extracting(LockInfo::key).containsExactlyInAnyOrder("a", "b");
        assertThat(held).allSatisfy(info -> assertThat(info.heldHere()).isTrue());
        assertThatThrownBy(() -> held.add(held.get(0))).isInstanceOf(UnsupportedOperationException.class);
        assertThat(mine.held()).extracting(LockInfo::key).containsExactly("b");
        b.close();
        elsewhere.close();
        assertThat(mine.held()).isEmpty();
    }

    @Test
    void forceReleaseFreesAKeyHeldByAnotherInstanceWhichLearnsAtItsNextRenewal() {
        Captured log = Captured.start();
        try {
            var holder = locks(there, false).acquire("stuck");
            EngineLocks admin = locks(here, true);

            assertThat(admin.forceRelease("stuck")).isTrue();
            var next = admin.acquire("stuck");

            assertThat(next.fencingToken()).as("the next token").isGreaterThan(holder.fencingToken());
            LockLostException reason = holder.whenLost()
                    .toCompletableFuture()
                    .orTimeout(5, java.util.concurrent.TimeUnit.SECONDS)
                    .join();
            assertThat(reason).hasMessageContaining("no longer holds it");
            assertThat(holder.isHeld()).isFalse();
            assertThat(admin.forceRelease("free")).as("a free key").isFalse();
            assertThat(log.messages)
                    .anySatisfy(m -> assertThat(m)
                            .contains(
                                    "BATON-050",
                                    "'stuck'",
                                    "fencing token " + holder.fencingToken(),
                                    "thread '" + Thread.currentThread().getName() + "'"));
            holder.close();
            next.close();
        } finally {
            log.stop();
        }
    }

    @Test
    void forceReleaseIsOffUnlessConfigured() {
        EngineLocks admin = locks(here, false);
        var lock = locks(there, false).acquire("kept");

        assertThatThrownBy(() -> admin.forceRelease("kept"))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("set baton.admin.force-release=true");
        assertThat(lock.isHeld()).isTrue();
        lock.close();
    }

    @Test
    void aStoreThatCannotInspectIsNamed() {
        ForwardingLockStore blind = new ForwardingLockStore(new MemoryLockStore()) {
            @Override
            public Set<StoreCapability> capabilities() {
                Set<StoreCapability> without = EnumSet.copyOf(delegate().capabilities());
                without.remove(StoreCapability.INSPECT);
                return without;
            }

            @Override
            public String toString() {
                return "blind";
            }
        };
        LockEngine engine = engines.engine(blind, 300, 1_000);
        try {
            EngineLocks locks = locks(engine, true);
            assertThatThrownBy(() -> locks.inspect("k"))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("blind")
                    .hasMessageContaining("INSPECT");
            assertThatThrownBy(() -> locks.forceRelease("k"))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("blind");
            assertThat(locks.held()).as("held() works with every store").isEmpty();
        } finally {
            engine.close();
        }
    }

    /** What the {@code dev.baton} logger logs meanwhile. */
    static final class Captured extends Handler {
        final List<String> messages = new CopyOnWriteArrayList<>();

        static Captured start() {
            Captured handler = new Captured();
            Logger.getLogger("dev.baton").addHandler(handler);
            return handler;
        }

        void stop() {
            Logger.getLogger("dev.baton").removeHandler(this);
        }

        @Override
        public void publish(LogRecord record) {
            String text = record.getMessage();
            Object[] parameters = record.getParameters();
            messages.add(parameters == null ? text : java.text.MessageFormat.format(text, parameters));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
