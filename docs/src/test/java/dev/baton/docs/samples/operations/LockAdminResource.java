package dev.baton.docs.samples.operations;

import dev.baton.LockInfo;
import dev.baton.Locks;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * An operator's view of the locks, as an application exposes it: Baton itself serves no HTTP endpoint of its
 * own for this. Protect it like any administrative resource.
 */
// tag::admin[]
@Path("admin/locks")
@RequestScoped
@RolesAllowed("lock-admin")
@Produces(MediaType.APPLICATION_JSON)
public class LockAdminResource {

    @Inject
    Locks locks;

    /** Who holds a key, in any instance that shares the store (stores with the INSPECT capability). */
    @GET
    @Path("{key}")
    public Response holder(@PathParam("key") String key) {
        return locks.inspect(key)
                .map(info -> Response.ok(info))
                .orElse(Response.status(Response.Status.NOT_FOUND))
                .build();
    }

    /** The locks this application instance holds now (every store). */
    @GET
    public List<LockInfo> heldHere() {
        return locks.held();
    }

    /** Frees a stuck key; needs baton.admin.force-release=true and is logged as BATON-050. */
    @DELETE
    @Path("{key}")
    public Response forceRelease(@PathParam("key") String key) {
        return locks.forceRelease(key)
                ? Response.noContent().build()
                : Response.status(Response.Status.NOT_FOUND).build();
    }
}
// end::admin[]
