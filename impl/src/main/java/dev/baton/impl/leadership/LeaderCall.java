package dev.baton.impl.leadership;

import dev.baton.Leadership;
import dev.baton.LockException;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.ReleaseDeferral;
import dev.baton.impl.logging.BatonLog;
import dev.baton.spi.KeyFormat;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * The rule of one call of a {@code @Leader} method: run it if this instance leads the election, else skip
 * (return null). A run inside a JTA transaction ties the transaction to the term's lock: if the term's lock is
 * gone when it is about to commit, it is marked rollback-only, as for a {@code @Synchronized} method.
 */
public final class LeaderCall {

    private LeaderCall() {}

    /**
     * @param plan the method's plan
     * @param elections this instance's candidacy by manager and election (joins when it has not)
     * @param deferral the caller's unit of work (a JTA transaction), tied to the term's lock
     * @param logKeys how log lines write keys and election names ({@code baton.log.keys})
     * @param work the method
     * @return the method's result, or null when skipped
     * @throws Exception what the method threw
     */
    public static Object call(
            LeaderPlan plan,
            Function<LeaderPlan, Leadership> elections,
            ReleaseDeferral deferral,
            KeyFormat logKeys,
            Callable<?> work)
            throws Exception {
        HeldLock term;
        try {
            term = elections.apply(plan) instanceof Candidacy candidacy ? candidacy.termLock() : null;
        } catch (LockException e) {
            // No store, or shutting down: this instance does not lead, and the method never runs unguarded.
            term = null;
        }
        if (term == null) {
            BatonLog.followerSkipped(plan.method(), logKeys, plan.election());
            return null;
        }
        // Nothing to release at the transaction's end: the term outlives the call.
        deferral.awaitCompletion(term, () -> {});
        return work.call();
    }
}
