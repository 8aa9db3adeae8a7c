package dev.baton.tck.runtime.support;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a caller inside a section until the test opens the gate: the test knows, without timing,
 * that the lock is held ({@link #entered(String)}) and decides when it is released.
 */
@ApplicationScoped
public class Gate {

    private final Map<String, CountDownLatch> latches = new ConcurrentHashMap<>();
    private final Set<String> entered = ConcurrentHashMap.newKeySet();

    /** Marks {@code name} entered and waits until it is opened (at most 60 s). */
    public boolean await(String name) {
        entered.add(name);
        try {
            return latch(name).await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public boolean entered(String name) {
        return entered.contains(name);
    }

    public void open(String name) {
        latch(name).countDown();
    }

    private CountDownLatch latch(String name) {
        return latches.computeIfAbsent(name, k -> new CountDownLatch(1));
    }
}
