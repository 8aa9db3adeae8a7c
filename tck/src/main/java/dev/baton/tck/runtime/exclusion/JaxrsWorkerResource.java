package dev.baton.tck.runtime.exclusion;

import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.HolderProbe;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /api/work/{key}}: the resource method itself is {@code @Synchronized}. */
@Path("work")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class JaxrsWorkerResource {

    @Inject
    HolderProbe probe;

    @POST
    @Path("{key}")
    @Synchronized("jaxrs:{key}")
    public String work(@PathParam("key") String key) {
        probe.hold("jaxrs:" + key, 100);
        return "done";
    }
}
