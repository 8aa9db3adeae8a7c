package dev.baton.examples.orders;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /api/sweeps?limit=n}: the runs of {@link UnpaidOrders} per planned time, from the database. */
@Path("sweeps")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class SweepsResource {

    @Inject
    UnpaidOrders unpaid;

    @GET
    public String sweeps(@QueryParam("limit") @DefaultValue("20") int limit) {
        return unpaid.sweeps(Math.max(1, Math.min(limit, 1000)));
    }
}
