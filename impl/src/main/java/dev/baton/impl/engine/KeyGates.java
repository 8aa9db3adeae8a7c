package dev.baton.impl.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One engine's key gates, by store key: a key's gate is here while a thread of this JVM holds or wants it.
 * The gates are also where the engine finds its held locks (each gate's {@link KeyGate#holder()}): a set
 * of its own would cost every held lock a second map node.
 *
 * <p>A lock is listed from {@link KeyGate#holder(HeldLock)} until its {@link KeyGate#clearHolder} (at its
 * release, when it is left to expire, or when abandoned at shutdown), and its gate stays here at least as long:
 * the holder is one of the gate's users until its release leaves the gate.
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

    /** @return how many threads use the key's gate (holder and waiters) */
    int users(String storeKey) {
        KeyGate gate = gates.get(storeKey);
        return gate == null ? 0 : gate.users;
    }

    /** @return the locks held now, a copy */
    List<HeldLock> heldLocks() {
        List<HeldLock> locks = new ArrayList<>();
        held().forEach(locks::add);
        return locks;
    }

    /** @return how many locks are held now (counted: for tests and shutdown logs) */
    int heldCount() {
        int count = 0;
        for (KeyGate gate : gates.values()) {
            if (gate.holder() != null) {
                count++;
            }
        }
        return count;
    }

    /**
     * @return a live view of the locks held, weakly consistent as the map's own views are: no copy, for the
     *     renewal batches that look through all held locks on each batch
     */
    Iterable<HeldLock> held() {
        return () -> new Iterator<>() {
            private final Iterator<KeyGate> all = gates.values().iterator();
            private HeldLock next = advance();

            private HeldLock advance() {
                while (all.hasNext()) {
                    HeldLock lock = all.next().holder();
                    if (lock != null) {
                        return lock;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public HeldLock next() {
                HeldLock lock = next;
                if (lock == null) {
                    throw new NoSuchElementException();
                }
                next = advance();
                return lock;
            }
        };
    }
}
