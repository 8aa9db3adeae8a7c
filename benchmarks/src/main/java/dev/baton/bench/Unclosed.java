package dev.baton.bench;

import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.LockStore;

/**
 * A store shared by several engines of one JVM (the memory store standing for several instances): every
 * call is passed on except {@link #close()}, so one engine closing does not end the others' locks.
 */
final class Unclosed extends ForwardingLockStore {

    Unclosed(LockStore store) {
        super(store);
    }

    @Override
    public void close() {
        // the benchmark closes the shared store itself, once
    }
}
