package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Lock;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Stores check no arguments: the runtime checks every key before it calls one, and refuses a key with
 * {@code U+0000} for a store that does not declare {@link StoreCapability#NUL_IN_KEYS}, on every path from the
 * API (acquire, tryAcquire, inspect, forceRelease). A store that declares it gets such keys exactly.
 */
class StoreKeyCheckTest {

    private static final String NUL_KEY = "order\u00007";

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    /** The memory store, without {@code NUL_IN_KEYS} unless told, noting every call as {@code operation key}. */
    static final class RecordingStore extends ForwardingLockStore {
        final List<String> calls = new CopyOnWriteArrayList<>();
        private final boolean nulInKeys;

        RecordingStore(boolean nulInKeys) {
            super(new MemoryLockStore());
            this.nulInKeys = nulInKeys;
        }

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            calls.add("acquire " + acquisition.key());
            return super.acquire(acquisition);
        }

        @Override
        public boolean renew(Renewal renewal) {
            calls.add("renew " + renewal.key());
            return super.renew(renewal);
        }

        @Override
        public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
            leases.forEach(lease -> calls.add("renew " + lease.key()));
            return super.renewAll(leases, ttlMillis, maxWaitMillis);
        }

        @Override
        public boolean release(String key, String owner) {
            calls.add("release " + key);
            return super.release(key, owner);
        }

        @Override
        public boolean leaveTurn(String key, String waiter) {
            calls.add("leaveTurn " + key);
            return super.leaveTurn(key, waiter);
        }

        @Override
        public Optional<Holder> inspect(String key) {
            calls.add("inspect " + key);
            return super.inspect(key);
        }

        @Override
        public Set<StoreCapability> capabilities() {
            Set<StoreCapability> capabilities = EnumSet.copyOf(delegate().capabilities());
            if (!nulInKeys) {
                capabilities.remove(StoreCapability.NUL_IN_KEYS);
            }
            return capabilities;
        }
    }

    private static EngineLocks locks(LockEngine engine) {
        return new EngineLocks(engine, name -> null, ReleaseDeferral.NONE, new Inspection(engine, true, () -> "test"));
    }

    @Test
    void aStoreWithoutNulInKeysIsNeverCalledWithOne() {
        RecordingStore store = new RecordingStore(false);
        EngineLocks locks = locks(engines.engine(store, 5_000, 1_000));

        assertThatThrownBy(() -> locks.acquire(NUL_KEY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> locks.tryAcquire(NUL_KEY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> locks.inspect(NUL_KEY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> locks.forceRelease(NUL_KEY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");

        assertThat(store.calls).as("calls that reached the store").isEmpty();
    }

    @Test
    void aNulAddedByThePrefixIsRefusedToo() {
        RecordingStore store = new RecordingStore(false);
        EngineLocks locks = locks(engines.engine(store)
                .ttl(5_000)
                .timeout(1_000)
                .prefix("app\u0000")
                .build());

        assertThatThrownBy(() -> locks.acquire("order:7"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL")
                .hasMessageContaining("prefix");
        assertThat(store.calls).as("calls that reached the store").isEmpty();
    }

    @Test
    void aStoreWithNulInKeysGetsTheKeyExactly() {
        RecordingStore store = new RecordingStore(true);
        EngineLocks here = locks(engines.engine(store, 5_000, 1_000));
        EngineLocks there = locks(engines.engine(store, 5_000, 1_000));

        Lock lock = here.acquire(NUL_KEY);
        assertThat(there.tryAcquire(NUL_KEY)).as("held under the very key").isEmpty();
        assertThat(there.inspect(NUL_KEY)).hasValueSatisfying(info -> {
            assertThat(info.key()).isEqualTo(NUL_KEY);
            assertThat(info.fencingToken()).isEqualTo(lock.fencingToken());
        });
        assertThat(there.forceRelease(NUL_KEY)).isTrue();
        lock.close();

        assertThat(store.calls)
                .as("every call got the key as given")
                .isNotEmpty()
                .allSatisfy(call ->
                        assertThat(call.substring(call.indexOf(' ') + 1)).isEqualTo(NUL_KEY))
                .contains("acquire " + NUL_KEY, "inspect " + NUL_KEY, "release " + NUL_KEY);
        assertThat(store.calls.stream().filter(call -> call.startsWith("acquire ")))
                .as("acquire calls")
                .hasSize(2);
    }
}
