package dev.baton.examples.quarkus;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /sweeps}: the {@link Sweeper}'s runs of every instance, one per line. */
@Path("sweeps")
@Produces(MediaType.TEXT_PLAIN)
public class SweepsResource {

    @Inject
    SweepJournal journal;

    /** @return {@code <planned epoch ms> <instance> <fencing token>} lines, by planned time */
    @GET
    public String runs() {
        return String.join("\n", journal.runs());
    }
}
