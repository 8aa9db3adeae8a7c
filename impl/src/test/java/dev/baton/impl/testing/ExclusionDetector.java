package dev.baton.impl.testing;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the threads inside a critical section and remembers the most ever seen at once: any value
 * above 1 is a violation of mutual exclusion, seen by the code itself, not inferred from timing.
 */
public final class ExclusionDetector {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger maxInside = new AtomicInteger();
    private final AtomicInteger entries = new AtomicInteger();

    /** Call at the start of the critical section. */
    public void enter() {
        int now = inside.incrementAndGet();
        maxInside.accumulateAndGet(now, Math::max);
        entries.incrementAndGet();
        // Give an overlapping thread a real chance to show up.
        Thread.yield();
    }

    /** Call at the end of the critical section. */
    public void exit() {
        inside.decrementAndGet();
    }

    public int maxInside() {
        return maxInside.get();
    }

    public int entries() {
        return entries.get();
    }
}
