package dev.baton.impl.engine;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * One engine's key gates, by store key: a key's gate is here while a thread of this JVM holds or wants it.
 * The gates are also where the engine finds its held locks (each gate's {@link KeyGate#holder()}): a set
 * of its own would cost every held lock a second map node.
 *
 * <p>A lock is listed from {@link KeyGate#holder(HeldLock)} until its {@link KeyGate#clearHolder} (at its
 * release, when it is left to expire, or when abandoned at shutdown), and its gate stays here at least as long:
 * the holder is one of the gate's users until its release leaves the gate.
 *
 * <p>Taking a key's gate and giving it back are linearizable. The list of held locks is not: it is weakly
 * consistent, as the map's views are (a lock taken or given up while it is made may or may not be in it); when no
 * thread is changing it, it is exact, and each lock was counted as given up once, by its release or by the shutdown
 * (model-checked: {@code KeyGatesLincheckTest}).
 */
final class KeyGates {

    private final ConcurrentHashMap<String, KeyGate> gates = new ConcurrentHashMap<>();

    /** @return the key's gate, made if needed, with one user more (the caller) */
    KeyGate enter(String storeKey) {
        return gates.compute(storeKey, (k, gate) -> {
            KeyGate g = gate == null ? new KeyGate() : gate;
            g.users++;
            return g;
        });
    }

    /** One user of {@code gate} less; the gate leaves the map with its last user. */
    void exit(String storeKey, KeyGate gate) {
        gates.computeIfPresent(storeKey, (k, g) -> g == gate && --g.users == 0 ? null : g);
    }

    /** @return the key's gate, or null if no thread of this JVM holds or wants the key */
    KeyGate get(String storeKey) {
        return gates.get(storeKey);
    }

    /** Wakes the thread contending for each key, if any: it asks the store again at once. */
    void wakeContenders() {
        gates.values().forEach(KeyGate::wakeContender);
    }

    /** @return how many threads use the key's gate (holder and waiters) */
    int users(String storeKey) {
        KeyGate gate = gates.get(storeKey);
        return gate == null ? 0 : gate.users;
    }

    /** @return the locks held now, a copy */
    List<HeldLock> heldLocks() {
        return holders().toList();
    }

    /** @return how many locks are held now (counted: for tests) */
    int heldCount() {
        return (int) holders().count();
    }

    /**
     * @return a live view of the locks held, weakly consistent as the map's own views are: no copy, for the
     *     renewal batches that look through all held locks on each batch
     */
    Iterable<HeldLock> held() {
        return () -> holders().iterator();
    }

    private Stream<HeldLock> holders() {
        return gates.values().stream().flatMap(KeyGate::heldLocks);
    }
}
