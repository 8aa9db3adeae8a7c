package dev.baton.tck.runtime.shared;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/arrivals?name=<name>}: how many requests named so {@link Arrivals} counted. */
@Path("arrivals")
@RequestScoped
public class ArrivalsResource {

    @Inject
    Arrivals arrivals;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String count(@QueryParam("name") String name) {
        return Integer.toString(arrivals.count(name));
    }
}
