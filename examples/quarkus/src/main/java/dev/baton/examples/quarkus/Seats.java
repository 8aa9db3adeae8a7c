package dev.baton.examples.quarkus;

import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A CDI bean with {@code @Synchronized}: reserving a seat is a read-modify-write of its booking count that
 * is only correct one caller at a time per seat. Counts how many callers are inside at once.
 */
@ApplicationScoped
public class Seats {

    private final Map<String, Integer> bookings = new ConcurrentHashMap<>();
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger mostInside = new AtomicInteger();

    /**
     * @param seat the seat
     * @return its bookings after this one
     * @throws InterruptedException when interrupted while "working"
     */
    // tag::reserve[]
    @Synchronized("seat:{seat}")
    public int reserve(String seat) throws InterruptedException {
        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
        try {
            int booked = bookings.getOrDefault(seat, 0);
            Thread.sleep(2); // a lost update without the lock
            bookings.put(seat, booked + 1);
            return booked + 1;
        } finally {
            inside.decrementAndGet();
        }
    }
    // end::reserve[]

    /** @return the most callers ever inside {@link #reserve} at once */
    public int mostInside() {
        return mostInside.get();
    }

    /**
     * @param seat a seat
     * @return its bookings
     */
    public int bookings(String seat) {
        return bookings.getOrDefault(seat, 0);
    }
}
