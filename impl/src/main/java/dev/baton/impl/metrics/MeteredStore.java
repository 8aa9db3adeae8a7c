package dev.baton.impl.metrics;

import dev.baton.impl.engine.EngineMetrics;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** A store whose every call is timed, by operation, into a manager's {@link EngineMetrics}. */
final class MeteredStore extends ForwardingLockStore {

    /** The operations it times, as {@link EngineMetrics#storeCall} names them. */
    static final List<String> OPERATIONS =
            List.of("acquire", "renew", "renew_all", "release", "hand_over", "inspect", "leave_turn");

    private final EngineMetrics metrics;

    MeteredStore(LockStore delegate, EngineMetrics metrics) {
        super(delegate);
        this.metrics = metrics;
    }

    private <T> T timed(String operation, Supplier<T> call) {
        long started = System.nanoTime();
        try {
            return call.get();
        } finally {
            metrics.storeCall(operation, System.nanoTime() - started);
        }
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        return timed("acquire", () -> super.acquire(acquisition));
    }

    @Override
    public boolean leaveTurn(String key, String waiter) {
        return timed("leave_turn", () -> super.leaveTurn(key, waiter));
    }

    @Override
    public boolean renew(Renewal renewal) {
        return timed("renew", () -> super.renew(renewal));
    }

    @Override
    public boolean release(String key, String owner) {
        return timed("release", () -> super.release(key, owner));
    }

    /** A release that hands the key over to the next waiter of this JVM: one store call, timed as {@code hand_over}. */
    @Override
    public HandOverResult handOver(String owner, Acquisition next) {
        return timed("hand_over", () -> super.handOver(owner, next));
    }

    @Override
    public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
        return timed("renew_all", () -> super.renewAll(leases, ttlMillis, maxWaitMillis));
    }

    @Override
    public Optional<Holder> inspect(String key) {
        return timed("inspect", () -> super.inspect(key));
    }
}
