package dev.baton.tck.runtime.schedule;

import dev.baton.Lock;
import dev.baton.LockOptions;
import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code /api/schedule}: the {@link ScheduleLog} ({@code GET state}, {@code GET runs}, {@code GET details}),
 * and the schedule's key taken and given back by the application itself with {@link Locks}
 * ({@code POST hold?key=...}, {@code POST release}), as another instance would hold it. Both answer the state
 * read while the key is held: after {@code hold} acquired it, before {@code release} gives it back.
 */
@Path("schedule")
@ApplicationScoped
@Produces(MediaType.TEXT_PLAIN)
public class ScheduleResource {

    private final AtomicReference<Lock> held = new AtomicReference<>();

    @Inject
    Locks locks;

    @Inject
    ScheduleLog log;

    @GET
    @Path("state")
    public String state() {
        return log.state();
    }

    @GET
    @Path("runs")
    public String runs() {
        return log.runsByPlannedTime();
    }

    @GET
    @Path("details")
    public String details() {
        return log.details();
    }

    /** @return the server's wall clock, epoch milliseconds: what names the planned times */
    @GET
    @Path("now")
    public String now() {
        return Long.toString(System.currentTimeMillis());
    }

    /** Takes {@code key} (waiting for a run's hold to pass) and keeps it, renewed, until {@code release}. */
    @POST
    @Path("hold")
    public String hold(@QueryParam("key") String key) {
        Lock lock = locks.acquire(key, LockOptions.defaults().withTimeout(Duration.ofSeconds(60)));
        if (!held.compareAndSet(null, lock)) {
            lock.close();
            throw new IllegalStateException("the schedule's key is held already");
        }
        return log.state();
    }

    @POST
    @Path("release")
    public String release() {
        Lock lock = held.getAndSet(null);
        if (lock == null) {
            throw new IllegalStateException("the schedule's key is not held");
        }
        String state = log.state();
        boolean stillHeld = lock.isHeld();
        lock.close();
        return state + ",held=" + stillHeld;
    }
}
