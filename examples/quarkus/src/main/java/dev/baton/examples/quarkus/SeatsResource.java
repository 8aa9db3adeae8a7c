package dev.baton.examples.quarkus;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code /seats}: reserves through {@link Seats}, and tells what it saw. */
@Path("seats")
@Produces(MediaType.TEXT_PLAIN)
public class SeatsResource {

    @Inject
    Seats seats;

    /**
     * @param seat a seat
     * @return its bookings after this one
     * @throws InterruptedException when interrupted
     */
    @POST
    @Path("{seat}")
    public String reserve(@PathParam("seat") String seat) throws InterruptedException {
        return Integer.toString(seats.reserve(seat));
    }

    /**
     * @param seat a seat
     * @return {@code bookings=..,mostInside=..}
     */
    @GET
    @Path("{seat}")
    public String report(@PathParam("seat") String seat) {
        return "bookings=" + seats.bookings(seat) + ",mostInside=" + seats.mostInside();
    }
}
