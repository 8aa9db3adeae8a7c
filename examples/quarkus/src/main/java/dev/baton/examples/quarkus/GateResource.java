package dev.baton.examples.quarkus;

import dev.baton.Locks;
import dev.baton.Synchronized;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /gate}, {@code @Synchronized} on JAX-RS methods: {@code hold/{id}} takes {@code gate:{id}} and keeps
 * it until {@code open/{id}}; {@code wait/{id}} wants the same lock with the timeout configured for it in
 * {@code application.properties}; {@code try/{id}} wants it without waiting ({@code await = false}). A lock
 * not obtained is a 409 problem, written by Baton's exception mapper. {@code token/{id}} is {@code try/{id}}
 * answering with the lock's fencing token.
 */
@Path("gate")
@Produces(MediaType.TEXT_PLAIN)
public class GateResource {

    @Inject
    Gate gate;

    @Inject
    Locks locks;

    /**
     * @param id the gate
     * @return how the hold ended
     */
    @POST
    @Path("hold/{id}")
    @Synchronized("gate:{id}")
    public String hold(@PathParam("id") String id) {
        return gate.await(id) ? "released" : "gate never opened";
    }

    /**
     * @param id the gate
     * @return {@code got it}
     */
    @POST
    @Path("wait/{id}")
    @Synchronized("gate:{id}")
    public String waitFor(@PathParam("id") String id) {
        return "got it";
    }

    /**
     * @param id the gate
     * @return {@code got it}
     */
    @POST
    @Path("try/{id}")
    @Synchronized(value = "gate:{id}", await = false)
    public String tryOnce(@PathParam("id") String id) {
        return "got it";
    }

    /**
     * @param id the gate
     * @return the fencing token of the lock this call held
     */
    @POST
    @Path("token/{id}")
    @Synchronized(value = "gate:{id}", await = false)
    public String token(@PathParam("id") String id) {
        return Long.toString(locks.current().orElseThrow().fencingToken());
    }

    /**
     * @param id the gate
     * @return whether a holder entered it
     */
    @GET
    @Path("entered/{id}")
    public String entered(@PathParam("id") String id) {
        return Boolean.toString(gate.entered(id));
    }

    /**
     * @param id the gate to open
     * @return {@code opened}
     */
    @POST
    @Path("open/{id}")
    public String open(@PathParam("id") String id) {
        gate.open(id);
        return "opened";
    }
}
