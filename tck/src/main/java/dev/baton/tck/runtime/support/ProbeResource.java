package dev.baton.tck.runtime.support;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/probe/{name}}: the {@link HolderProbe} counts of a section. */
@Path("probe")
@RequestScoped
public class ProbeResource {

    @Inject
    HolderProbe probe;

    @GET
    @Path("{name}")
    @Produces(MediaType.TEXT_PLAIN)
    public String stats(@PathParam("name") String name) {
        return probe.stats(name);
    }
}
