package dev.baton.impl.engine;

import dev.baton.LockLostException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that records the keys of the locks reported lost, in order. */
final class LostKeys implements LockListener {

    private final List<String> keys = new CopyOnWriteArrayList<>();

    @Override
    public void lost(HeldLock lock, LockLostException reason) {
        keys.add(lock.key());
    }

    /** @return the keys so far (a live view) */
    List<String> keys() {
        return keys;
    }
}
