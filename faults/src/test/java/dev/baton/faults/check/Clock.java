package dev.baton.faults.check;

import java.util.Locale;

/** Writes {@code System.nanoTime()} stamps as seconds since the start of the run. */
final class Clock {

    private final long origin;

    Clock(long origin) {
        this.origin = origin;
    }

    String at(long nano) {
        return nano == Long.MAX_VALUE ? "never" : String.format(Locale.ROOT, "+%.3fs", (nano - origin) / 1e9);
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.0f ms", nanos / 1e6);
    }
}
