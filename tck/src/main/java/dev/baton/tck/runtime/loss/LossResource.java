package dev.baton.tck.runtime.loss;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /api/loss/{name}} works until the lock is lost; {@code GET /api/loss/events} lists the events. */
@Path("loss")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class LossResource {

    @Inject
    LosingWorker worker;

    @POST
    @Path("{name}")
    public String work(@PathParam("name") String name) {
        return worker.workUntilLost(name);
    }

    @GET
    @Path("events")
    public String events() {
        return String.join(";", worker.losses());
    }
}
