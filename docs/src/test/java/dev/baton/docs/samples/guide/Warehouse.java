package dev.baton.docs.samples.guide;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;

/** A resource that checks fencing tokens: it remembers the highest token per item and refuses lower ones. */
@ApplicationScoped
public class Warehouse {

    private final Map<String, Long> lastToken = new HashMap<>();
    private final Map<String, Integer> quantities = new HashMap<>();

    public synchronized void write(String sku, int amount, long token) {
        long last = lastToken.getOrDefault(sku, 0L);
        if (token < last) {
            throw new IllegalStateException(
                    "stale writer: token " + token + " < " + last + " (its lock was lost and taken again)");
        }
        lastToken.put(sku, token);
        quantities.merge(sku, amount, Integer::sum);
    }

    public synchronized int quantity(String sku) {
        return quantities.getOrDefault(sku, 0);
    }
}
