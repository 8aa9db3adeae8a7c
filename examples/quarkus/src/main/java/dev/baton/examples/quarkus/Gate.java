package dev.baton.examples.quarkus;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Latches by id: a holder waits on one until a test opens it. */
@ApplicationScoped
public class Gate {

    private final Map<String, CountDownLatch> opened = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> entered = new ConcurrentHashMap<>();

    /**
     * Marks the id entered and waits (at most a minute) until it is opened.
     *
     * @param id the gate
     * @return whether it was opened
     */
    public boolean await(String id) {
        latch(entered, id).countDown();
        try {
            return latch(opened, id).await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @param id the gate to open */
    public void open(String id) {
        latch(opened, id).countDown();
    }

    /**
     * @param id the gate
     * @return whether a holder has entered it
     */
    public boolean entered(String id) {
        return latch(entered, id).getCount() == 0;
    }

    private static CountDownLatch latch(Map<String, CountDownLatch> latches, String id) {
        return latches.computeIfAbsent(id, k -> new CountDownLatch(1));
    }
}
