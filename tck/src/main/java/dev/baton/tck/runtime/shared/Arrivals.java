package dev.baton.tck.runtime.shared;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts, per name, the requests that reached the application before asking for their lock: the test waits until
 * a request that must wait has arrived before it judges that the request waits.
 */
@ApplicationScoped
public class Arrivals {

    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    /** One more request named {@code name} arrived. */
    public void arrive(String name) {
        counts.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
    }

    /** How many requests named {@code name} arrived so far. */
    public int count(String name) {
        AtomicInteger count = counts.get(name);
        return count == null ? 0 : count.get();
    }
}
