package dev.baton.tck.runtime.transactions;

import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link TransactionalReleaseAfterCommitTest} on the JPA store configured by one line, {@code
 * baton.jpa.data-source=java:comp/DefaultDataSource}: the locks are rows in the same database as the counter,
 * taken with each caller's transaction suspended, and each holder's release still waits for its commit.
 */
@Tag(RuntimeTck.TAG_JPA_DATA_SOURCE)
class DataSourceReleaseAfterCommitTest extends ReleaseAfterCommitScenario {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withJpaStore(deployment("baton-tck-release-after-commit-jpa", TransactionalCounter.class));
    }

    @Test
    @TckRule(id = "R-5.3-05", spec = "spec-runtime-release-after-commit")
    @Override
    void concurrentIncrementsOfOneRowLoseNoUpdate() {
        super.concurrentIncrementsOfOneRowLoseNoUpdate();
    }
}
