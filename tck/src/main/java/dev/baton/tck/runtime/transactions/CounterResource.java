package dev.baton.tck.runtime.transactions;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /api/counter/{name}}: POST increments, GET reads the deployment's {@link IncrementingCounter}. */
@Path("counter/{name}")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class CounterResource {

    @Inject
    IncrementingCounter counter;

    @POST
    public String increment(@PathParam("name") String name) {
        return Long.toString(counter.increment(name));
    }

    @GET
    public String read(@PathParam("name") String name) {
        return Long.toString(counter.read(name));
    }
}
