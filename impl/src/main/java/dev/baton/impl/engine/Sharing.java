package dev.baton.impl.engine;

import dev.baton.LockOptions;
import dev.baton.LockType;
import dev.baton.spi.Acquisition;

/** How the API's lock types and permits become the store's shared limit ({@link Acquisition#sharedLimit()}). */
public final class Sharing {

    private Sharing() {}

    /**
     * @param type read or write
     * @param permits how many may hold the key at once; 0 when not set
     * @return {@link Acquisition#EXCLUSIVE} for a writer without permits (or with one); the permits for a writer
     *     with more, or a reader with some; {@link Acquisition#UNLIMITED} for a reader without
     */
    public static int limit(LockType type, int permits) {
        if (type == LockType.READ) {
            return permits > 0 ? permits : Acquisition.UNLIMITED;
        }
        return permits > 1 ? permits : Acquisition.EXCLUSIVE;
    }

    /**
     * @param options the options
     * @return their shared limit, as {@link #limit(LockType, int)}
     */
    public static int limit(LockOptions options) {
        return limit(options.type(), options.permits().orElse(0));
    }
}
