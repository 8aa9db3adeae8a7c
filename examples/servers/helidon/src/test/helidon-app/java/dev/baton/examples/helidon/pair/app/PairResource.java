package dev.baton.examples.helidon.pair.app;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/journal}: the jobs' runs ({@link Journal#list()}); {@code GET /api/skips}: this instance's
 * skipped firings ({@link Journal#skips()}); {@code POST /api/work/{id}?millis=}: holds
 * {@code work:{id}} (never waiting: 409 while another instance holds it) for that long and answers
 * {@code <instance> token=<fencing token>}; {@code GET /api/work/{id}/holder}: the holder as the store tells it.
 */
@Path("/")
@ApplicationScoped
@Produces(MediaType.TEXT_PLAIN)
public class PairResource {

    @Inject
    Journal journal;

    @Inject
    Locks locks;

    @GET
    @Path("journal")
    public String journal() {
        return journal.list();
    }

    @GET
    @Path("skips")
    public String skips() {
        return journal.skips();
    }

    @POST
    @Path("work/{id}")
    @Synchronized(value = "work:{id}", await = false)
    public String work(@PathParam("id") String id, @QueryParam("millis") @DefaultValue("0") long millis)
            throws InterruptedException {
        long token = locks.current().orElseThrow().fencingToken();
        Thread.sleep(millis);
        return journal.instance() + " token=" + token;
    }

    @GET
    @Path("work/{id}/holder")
    public String holder(@PathParam("id") String id) {
        return locks.inspect("work:" + id)
                .map(info -> "held token=" + info.fencingToken() + " here=" + info.heldHere())
                .orElse("free");
    }
}
