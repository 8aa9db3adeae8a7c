package dev.baton.tck.runtime.transactions;

import dev.baton.tck.TckRule;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * Concurrent {@code @Transactional} increments of one row under {@code @Synchronized} lose no update:
 * the lock is released after the commit.
 */
class TransactionalReleaseAfterCommitTest extends ReleaseAfterCommitScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return deployment("baton-tck-release-after-commit-tx", TransactionalCounter.class);
    }

    @Test
    @TckRule(id = "R-5.3-01", spec = "spec-runtime-release-after-commit")
    @Override
    void concurrentIncrementsOfOneRowLoseNoUpdate() {
        super.concurrentIncrementsOfOneRowLoseNoUpdate();
    }
}
