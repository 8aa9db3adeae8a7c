package dev.baton.docs.samples.guide;

import dev.baton.Synchronized;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

// tag::jaxrs[]
@Path("orders/{id}/shipment")
public class Shipments {

    @POST
    @Synchronized(value = "order:{id}", timeout = "250ms") // not acquired in 250 ms: 409 Conflict
    public String ship(@PathParam("id") String id) {
        return "shipped " + id;
    }
}
// end::jaxrs[]
