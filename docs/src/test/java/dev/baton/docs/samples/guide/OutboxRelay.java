package dev.baton.docs.samples.guide;

import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.Locks;
import dev.baton.event.LeadershipRevoked;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/** Leader elections as the user guide shows them; {@code GuideSamplesTest} runs the programmatic part. */
@ApplicationScoped
public class OutboxRelay {

    @Inject
    Locks locks;

    /** What the relay published, with the token of the term it published in. */
    final List<String> published = new ArrayList<>();

    Leadership relay;

    // tag::leader-method[]
    @Leader("outbox-relay") // every instance calls it (a timer); it runs in the leader only
    public void relayPending() {
        long token = locks.lead("outbox-relay").token().orElseThrow(); // this term's fencing token
        publish("pending rows", token); // the receiver refuses a token lower than one it has seen
    }

    void revoked(@Observes LeadershipRevoked revoked) { // LOST, STEPPED_DOWN, WITHDRAWN or SHUTDOWN
        stopBackgroundWork(revoked.name());
    }
    // end::leader-method[]

    @PostConstruct
    // tag::lead[]
    void join() {
        relay = locks.lead("outbox-relay"); // joins the election; stands by until it leads
        relay.whenGranted().thenAccept(token -> publish("resumed", token)); // the term's fencing token
    }

    public void handOver() {
        relay.stepDown(); // ends this term, releases the lock; does not stand again for one ttl
    }
    // end::lead[]

    void publish(String what, long token) {
        synchronized (published) {
            published.add(what + "@" + token);
        }
    }

    void stopBackgroundWork(String election) {
        publish("stopped " + election, 0);
    }
}
