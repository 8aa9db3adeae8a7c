package dev.baton.examples.orders;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/relay?limit=n}: whether this instance leads the election of {@link OrdersRelay}, its term's
 * token, and the last {@code n} rows of the relay's journal (all instances', from the database).
 */
@Path("relay")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class RelayResource {

    @Inject
    OrdersRelay relay;

    @GET
    public String relay(@QueryParam("limit") @DefaultValue("20") int limit) {
        return relay.state(Math.max(1, Math.min(limit, 10_000)));
    }
}
