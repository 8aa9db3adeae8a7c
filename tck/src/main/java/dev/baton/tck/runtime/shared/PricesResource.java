package dev.baton.tck.runtime.shared;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /api/prices}: {@code read/{id}} and {@code write/{id}} call {@link Prices}, each counted by {@link
 * Arrivals} ({@code read-<id>}, {@code write-<id>}) before it asks for the lock; {@code read-until-opened/{id}}
 * reads until the gate {@code reading-<id>} opens; {@code GET {id}} tells what the {@link ReadWriteProbe} saw.
 */
@Path("prices")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class PricesResource {

    @Inject
    Prices prices;

    @Inject
    Arrivals arrivals;

    @Inject
    ReadWriteProbe probe;

    @POST
    @Path("{type: read|write}/{id}")
    public String access(@PathParam("type") String type, @PathParam("id") String id) {
        arrivals.arrive(type + "-" + id);
        if (type.equals("read")) {
            prices.read(id);
        } else {
            prices.write(id);
        }
        return type;
    }

    @POST
    @Path("read-until-opened/{id}")
    public String readUntilOpened(@PathParam("id") String id) {
        return prices.readUntilOpened(id) ? "released" : "gate never opened";
    }

    @GET
    @Path("{id}")
    public String stats(@PathParam("id") String id) {
        return probe.stats(id);
    }
}
