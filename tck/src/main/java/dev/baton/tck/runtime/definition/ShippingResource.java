package dev.baton.tck.runtime.definition;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code POST /api/ship?order=...}: ships the order under its lock and answers with the lock's key. */
@Path("ship")
@RequestScoped
public class ShippingResource {

    @Inject
    ShippingBean shipping;

    /**
     * @param order the order
     * @return the key the order was shipped under
     */
    @POST
    @Produces(MediaType.TEXT_PLAIN)
    public String ship(@QueryParam("order") String order) {
        return shipping.ship(order);
    }
}
