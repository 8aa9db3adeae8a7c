package dev.baton.tck.runtime.security;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code POST /api/guarded/anonymous}: calls {@link GuardedBean} as the request's (unauthenticated) caller;
 * {@code POST /api/guarded/run-as}: through {@link RunAsCaller}; each answers what the bean answered or
 * {@code refused: <exception chain>}. {@code GET /api/guarded/acquisitions}: what {@link CountingStore} was asked.
 */
@Path("guarded")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class GuardedResource {

    @EJB
    GuardedBean guarded;

    @EJB
    RunAsCaller runAs;

    @Inject
    CountingStore store;

    @POST
    @Path("anonymous")
    public String anonymous() {
        try {
            return guarded.work();
        } catch (RuntimeException e) {
            return refused(e);
        }
    }

    @POST
    @Path("run-as")
    public String withTheRole() {
        try {
            return runAs.call();
        } catch (RuntimeException e) {
            return refused(e);
        }
    }

    @GET
    @Path("acquisitions")
    public String acquisitions() {
        return Integer.toString(store.acquisitions());
    }

    private static String refused(Throwable e) {
        StringBuilder chain = new StringBuilder("refused:");
        for (Throwable t = e; t != null && chain.length() < 2000; t = t.getCause()) {
            chain.append(' ').append(t.getClass().getName());
        }
        return chain.toString();
    }
}
