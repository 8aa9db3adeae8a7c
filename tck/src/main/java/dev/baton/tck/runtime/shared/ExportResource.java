package dev.baton.tck.runtime.shared;

import dev.baton.Synchronized;
import dev.baton.tck.runtime.support.HolderProbe;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /api/export}: a JAX-RS method with {@value #PERMITS} permits, inside the probe's section {@code export}. */
@Path("export")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class ExportResource {

    /** How many callers may be inside at once. */
    static final int PERMITS = 3;

    /** How long each caller stays inside: long enough for the callers let in together to overlap. */
    static final long HOLD_MILLIS = 150;

    @Inject
    HolderProbe probe;

    @POST
    @Synchronized(value = "export", permits = PERMITS)
    public String export() {
        probe.hold("export", HOLD_MILLIS);
        return "exported";
    }
}
