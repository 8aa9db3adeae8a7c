package dev.baton.bench.cdi;

import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;

/** The same work three ways: plain, through a no-op interceptor, under {@code @Synchronized}. */
@ApplicationScoped
public class Counter {

    private long count;

    public long plain() {
        return ++count;
    }

    @Noop
    public long intercepted() {
        return ++count;
    }

    @Synchronized("bench:counter")
    public long locked() {
        return ++count;
    }

    /** The key held inside a {@code @Synchronized} method, to check that the interceptor runs. */
    @Synchronized("bench:counter")
    public String lockedSees(dev.baton.Locks locks) {
        return locks.current().map(dev.baton.Lock::key).orElse("none");
    }
}
