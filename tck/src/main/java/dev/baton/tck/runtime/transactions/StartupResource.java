package dev.baton.tck.runtime.transactions;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/startup}: what the {@link ApplicationThreadStartup} thread's locked work came to. */
@Path("startup")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class StartupResource {

    @Inject
    ApplicationThreadStartup startup;

    @GET
    public String outcome() {
        return startup.outcome();
    }
}
