package dev.baton.tck.runtime.support;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts, per name, how many callers are inside {@link #hold(String, long)} at the same moment and
 * the most there ever were. A section protected by a lock must never show more than one.
 */
@ApplicationScoped
public class HolderProbe {

    private final Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> most = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    /** Enters the section {@code name}, stays {@code millis} (so that unprotected callers overlap), leaves. */
    public void hold(String name, long millis) {
        int now = inside.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        most.computeIfAbsent(name, k -> new AtomicInteger()).accumulateAndGet(now, Math::max);
        calls.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inside.get(name).decrementAndGet();
        }
    }

    /** {@code calls=<n>,most=<m>} for the section {@code name}. */
    public String stats(String name) {
        return "calls=" + count(calls, name) + ",most=" + count(most, name);
    }

    private static int count(Map<String, AtomicInteger> counts, String name) {
        AtomicInteger value = counts.get(name);
        return value == null ? 0 : value.get();
    }
}
