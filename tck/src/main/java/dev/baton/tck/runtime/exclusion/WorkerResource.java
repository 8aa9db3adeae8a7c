package dev.baton.tck.runtime.exclusion;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /api/work/{key}} calls the deployment's {@link Worker} (a CDI bean or an EJB). */
@Path("work")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class WorkerResource {

    @Inject
    Worker worker;

    @POST
    @Path("{key}")
    public String work(@PathParam("key") String key) {
        worker.work(key);
        return "done";
    }
}
