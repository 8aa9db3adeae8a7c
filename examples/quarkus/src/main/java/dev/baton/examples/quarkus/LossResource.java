package dev.baton.examples.quarkus;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /loss}: runs {@link LosingWorker} and lists the {@code LockLost} events. */
@Path("loss")
@Produces(MediaType.TEXT_PLAIN)
public class LossResource {

    @Inject
    LosingWorker worker;

    /**
     * @param name the key's variable part
     * @return what the holder saw
     */
    @POST
    @Path("{name}")
    public String run(@PathParam("name") String name) {
        return worker.workUntilLost(name);
    }

    /** @return the events, comma-separated */
    @GET
    @Path("events")
    public String events() {
        return String.join(",", worker.losses());
    }
}
