package dev.baton.tck.runtime.transactions;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /api/lost/{name}}: writes under a lock that is lost before the commit, and answers
 * {@code committed} or {@code rolled back} ({@code POST /api/lost/programmatic/{name}}: the same under
 * {@code Locks.callWithLock}); {@code GET} reads the counter; {@code GET /api/lost/events/count}
 * the number of {@code LockLost} events observed.
 */
@Path("lost")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class LostLockResource {

    @Inject
    LosingCounter counter;

    @POST
    @Path("{name}")
    public String write(@PathParam("name") String name) {
        try {
            boolean held = counter.incrementThenLoseTheLock(name);
            return "committed (lock held at return: " + held + ")";
        } catch (Exception e) {
            // Servers differ: TransactionalException, or the RollbackException itself thrown undeclared.
            return "rolled back: " + e.getClass().getName();
        }
    }

    @POST
    @Path("programmatic/{name}")
    public String writeProgrammatically(@PathParam("name") String name) {
        try {
            boolean held = counter.incrementThenLoseTheLockProgrammatically(name);
            return "committed (lock held at return: " + held + ")";
        } catch (Exception e) {
            return "rolled back: " + e.getClass().getName();
        }
    }

    @GET
    @Path("{name}")
    public String read(@PathParam("name") String name) {
        return Long.toString(counter.read(name));
    }

    @GET
    @Path("events/count")
    public String losses() {
        return Integer.toString(counter.losses());
    }
}
