package dev.baton.faults.worker;

import static dev.baton.faults.history.Vocabulary.GRANTED;
import static dev.baton.faults.history.Vocabulary.REVOKED;

import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;

/**
 * Writes every term of this process's elections to its history, as an application would observe them: the
 * events Baton fires (synchronously, so a revocation is written before the lock is released, also at the
 * application's shutdown). Static observers: no bean instance, so nothing to create while contexts end.
 */
@Dependent
public class LeadershipJournal {

    private static final long PID = ProcessHandle.current().pid();

    static void granted(@Observes LeadershipGranted granted) {
        Worker.history().write(GRANTED, "pid", PID, "name", granted.name(), "tok", granted.token());
    }

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
    }
}
