package dev.baton.tck.runtime.leadership;

import dev.baton.Leader;
import dev.baton.Leadership;
import dev.baton.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The work only the leader of {@value TermJournal#ELECTION} does, called by {@link RelayTicker}'s timer in
 * every instance. As the {@link Leadership} documentation advises, it acts only once it was told of its term
 * (the granted event's token is the term's) and while it still leads: it checks both under the journal's lock,
 * which the revocation's observer needs too, so an action journaled lies between the grant and the revocation
 * of its term.
 */
@ApplicationScoped
public class Relay {

    /** How long one action lasts, so that two overlapping actions would show as overlapping intervals. */
    static final long ACTION_MILLIS = 20;

    @Inject
    Locks locks;

    /**
     * One action: runs in the leader only (elsewhere the call skips and returns null).
     *
     * @return the term's token when it acted, 0 when it ran before it was told of its term or after it ended
     */
    @Leader(TermJournal.ELECTION)
    public Long relay() {
        Leadership relay = locks.lead(TermJournal.ELECTION);
        synchronized (TermJournal.WRITING) {
            long start = System.nanoTime();
            OptionalLong token = relay.token();
            if (!relay.isLeader() || token.isEmpty() || token.getAsLong() != TermJournal.grantedToken) {
                // Ran in the instant between the term's start and its event, or its end and the interceptor's
                // check: not acting is what a relay does then.
                TermJournal.append("unseen", token.orElse(0), start, "-");
                return 0L;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(ACTION_MILLIS);
            } catch (InterruptedException e) {
                // the container stops the timer: the action is cut short, and still journaled as it ran
                Thread.currentThread().interrupt();
            }
            TermJournal.append("acted", token.getAsLong(), start, Long.toString(System.nanoTime()));
            return token.getAsLong();
        }
    }
}
