package dev.baton.tck.runtime.transactions;

import dev.baton.tck.TckRule;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * Concurrent {@code @Transactional} increments of one row under {@code Locks.callWithLock} lose no
 * update: the programmatic API, too, releases the lock only after the caller's transaction committed.
 */
class ProgrammaticReleaseAfterCommitTest extends ReleaseAfterCommitScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return deployment("baton-tck-release-after-commit-api", ProgrammaticCounter.class);
    }

    @Test
    @TckRule(id = "R-5.3-03", spec = "spec-runtime-release-after-commit")
    @Override
    void concurrentIncrementsOfOneRowLoseNoUpdate() {
        super.concurrentIncrementsOfOneRowLoseNoUpdate();
    }
}
