package dev.baton.faults.worker;

import static dev.baton.faults.history.Vocabulary.GRANTED;
import static dev.baton.faults.history.Vocabulary.REVOKED;
import static dev.baton.faults.history.Vocabulary.STILL_ACTING;

import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;

/**
 * Writes every term of this process's elections to its history, as an application would observe them: the
 * events Baton fires (synchronously, so a revocation is written before the lock is released, also at the
 * application's shutdown), and holds a revocation until the leader action under way has ended, so that the
 * lock is not released under it. Static observers: no bean instance, so nothing to create while contexts end.
 */
@Dependent
public class LeadershipJournal {

    private static final long PID = ProcessHandle.current().pid();
    /** The workers' ttl, as the suite passes it ({@code baton.ttl=<n>ms}). */
    private static final long TTL_MILLIS = Long.parseLong(
            System.getProperty("baton.ttl", "2000ms").replace("ms", "").strip());

    static void granted(@Observes LeadershipGranted granted) {
        long at = Worker.history().write(GRANTED, "pid", PID, "name", granted.name(), "tok", granted.token());
        Worker.section().granted(granted.token(), at);
    }

    /**
     * Writes the end of the term, then lets the leader action under way finish its step before Baton releases
     * the lock (this observer runs before the release): at most a tenth of the ttl for a lost term (its lease
     * outlasts the term by that much; longer would only hold Baton's thread), the application's drain time when
     * it steps down, leaves or stops (its lease still runs).
     */
    static void revoked(@Observes LeadershipRevoked revoked) {
        Worker.history()
                .write(
                        REVOKED,
                        "pid",
                        PID,
                        "name",
                        revoked.name(),
                        "tok",
                        revoked.token(),
                        "reason",
                        revoked.reason().name());
        long wait = revoked.reason() == dev.baton.Leadership.Reason.LOST
                ? Math.min(TTL_MILLIS / 10, 2_000)
                : Worker.settings().drainMillis();
        if (!Worker.section().awaitLeaderAction(wait)) {
            Worker.history().write(STILL_ACTING, "pid", PID, "tok", revoked.token(), "waited", wait);
        }
    }
}
