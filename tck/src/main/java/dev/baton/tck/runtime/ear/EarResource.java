package dev.baton.tck.runtime.ear;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The web module: {@code POST /api/ear/web?key=} holds the key in this resource's own {@code @Synchronized}
 * method, {@code POST /api/ear/ejb?key=} through the EJB module's bean, {@code GET /api/ear/report} what both
 * recorded.
 */
@Path("ear")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class EarResource {

    @Inject
    Locks locks;

    @EJB
    EarWork ejb;

    @POST
    @Path("web")
    @Synchronized("ear:{key}")
    public String web(@QueryParam("key") String key) {
        long token = locks.current().orElseThrow().fencingToken();
        EarSections.hold("web", token);
        return Long.toString(token);
    }

    @POST
    @Path("ejb")
    public String ejb(@QueryParam("key") String key) {
        return Long.toString(ejb.work(key));
    }

    @GET
    @Path("report")
    public String report() {
        return EarSections.report();
    }
}
