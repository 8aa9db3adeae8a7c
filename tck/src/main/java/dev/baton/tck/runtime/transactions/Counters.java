package dev.baton.tck.runtime.transactions;

import jakarta.persistence.EntityManager;

/** The increment both counters run: find or create the row, add one. */
final class Counters {

    private Counters() {}

    static long increment(EntityManager em, String name) {
        Counter counter = em.find(Counter.class, name);
        if (counter == null) {
            counter = new Counter(name);
            em.persist(counter);
        }
        long value = counter.increment();
        // widen the window between this read and the commit, where an early release would let the
        // next holder read the old value
        try {
            Thread.sleep(30);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return value;
    }

    static long read(EntityManager em, String name) {
        Counter counter = em.find(Counter.class, name);
        return counter == null ? 0 : counter.counted();
    }
}
