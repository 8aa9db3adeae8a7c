package dev.baton.tck.runtime.conflict;

import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.Gate;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /api/gate}: {@code hold/{id}} takes {@code gate:{id}} and keeps it until {@code open/{id}};
 * {@code wait/{id}} wants the same lock with the timeout configured for it; {@code try/{id}} wants it
 * without waiting.
 */
@Path("gate")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class GateResource {

    @Inject
    Gate gate;

    @POST
    @Path("hold/{id}")
    @Synchronized("gate:{id}")
    public String hold(@PathParam("id") String id) {
        return gate.await(id) ? "released" : "gate never opened";
    }

    /** Its timeout comes from the deployment's configuration (a per-method override). */
    @POST
    @Path("wait/{id}")
    @Synchronized("gate:{id}")
    public String waitFor(@PathParam("id") String id) {
        return "got it";
    }

    @POST
    @Path("try/{id}")
    @Synchronized(value = "gate:{id}", await = false)
    public String tryOnce(@PathParam("id") String id) {
        return "got it";
    }

    @GET
    @Path("entered/{id}")
    public String entered(@PathParam("id") String id) {
        return Boolean.toString(gate.entered(id));
    }

    @POST
    @Path("open/{id}")
    public String open(@PathParam("id") String id) {
        gate.open(id);
        return "opened";
    }
}
