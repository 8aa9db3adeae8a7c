package dev.baton.examples.quarkus;

import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.Locks;
import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code /relay}: a {@code @Leader} method on Quarkus. The instance joins the election {@value #ELECTION} when it
 * starts; {@code GET /relay} runs the method while it leads (the term's token) and skips otherwise ({@code 204});
 * {@code POST /relay/step-down} hands the leadership over; {@code GET /relay/terms} lists the grants and
 * revocations this instance was told of.
 */
@Path("relay")
@Produces(MediaType.TEXT_PLAIN)
@ApplicationScoped
public class RelayResource {

    static final String ELECTION = "quarkus-relay";

    private final List<String> terms = new CopyOnWriteArrayList<>();

    @Inject
    Locks locks;

    /**
     * @return the term's fencing token, or null (204) in an instance that does not lead
     */
    @GET
    @Leader(ELECTION)
    public String relay() {
        return "relayed with token " + leadership().token().orElseThrow();
    }

    /**
     * @param pauseMillis how long this instance does not stand again
     * @return whether it led
     */
    @POST
    @Path("step-down")
    public String stepDown(@QueryParam("pauseMillis") long pauseMillis) {
        boolean led = leadership().isLeader();
        leadership().stepDown(Duration.ofMillis(pauseMillis));
        return Boolean.toString(led);
    }

    /** @return the terms told, one per line */
    @GET
    @Path("terms")
    public String terms() {
        return String.join("\n", terms);
    }

    void granted(@Observes LeadershipGranted granted) {
        terms.add("granted " + granted.name() + " " + granted.token());
    }

    void revoked(@Observes LeadershipRevoked revoked) {
        terms.add("revoked " + revoked.name() + " " + revoked.token() + " " + revoked.reason());
    }

    private Leadership leadership() {
        return locks.lead(ELECTION);
    }
}
