package dev.baton.tck.runtime.support;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/probe?name=<section>}: the {@link HolderProbe} counts of a section (a query parameter: section
 * names hold a {@code :}, which some servers refuse in a path).
 */
@Path("probe")
@RequestScoped
public class ProbeResource {

    @Inject
    HolderProbe probe;

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String stats(@QueryParam("name") String name) {
        return probe.stats(name);
    }
}
