package dev.baton.tck.runtime.transactions;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Concurrent container-managed EJB increments of one row under {@code @Synchronized} lose no update:
 * the lock is released after the container commits.
 */
@Tag(RuntimeTck.TAG_EJB)
class EjbReleaseAfterCommitTest extends ReleaseAfterCommitScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return deployment("baton-tck-release-after-commit-ejb", EjbCounter.class);
    }

    @Test
    @TckRule(id = "R-5.3-02", spec = "spec-runtime-release-after-commit")
    @Override
    void concurrentIncrementsOfOneRowLoseNoUpdate() {
        super.concurrentIncrementsOfOneRowLoseNoUpdate();
    }
}
