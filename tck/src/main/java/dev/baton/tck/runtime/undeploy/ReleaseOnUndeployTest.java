package dev.baton.tck.runtime.undeploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * When an application is undeployed, Baton tells the holder of every lock it still holds that the lock
 * is lost, and a lock its holder then gives back is released in the store, by its owner, instead of
 * being left to expire. The application ({@link LockHolder}) takes five locks at startup and gives each
 * back only when {@code whenLost()} says so; its store ({@link JournalStore}) journals every call to a file the
 * test reads. The deployment is not managed: the test undeploys it itself and then reads the journal.
 *
 * <p>The journal is a file under {@link RuntimeTck#workDirectory()}: the server must run on the same
 * machine as the tests (or share that directory at the same path) and be allowed to write there.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
class ReleaseOnUndeployTest {

    static final String DEPLOYMENT = "baton-tck-release-on-undeploy";

    static final Path JOURNAL =
            RuntimeTck.workDirectory().resolve("baton-tck-undeploy-" + UUID.randomUUID() + ".journal");

    /** The default manager's renewal interval: renewals show in the journal that the locks are held. */
    static final String RENEW_INTERVAL = "200ms";

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withConfig(
                RuntimeTck.scenario(DEPLOYMENT).addClasses(JournalStore.class, LockHolder.class),
                JournalStore.JOURNAL,
                JOURNAL.toString(),
                "baton.ttl",
                "5s",
                "baton.renew-interval",
                RENEW_INTERVAL,
                "baton.managers",
                LockHolder.AUDIT,
                "baton." + LockHolder.AUDIT + ".ttl",
                "10m",
                "baton." + LockHolder.AUDIT + ".prefix",
                LockHolder.AUDIT + "/");
    }

    @Test
    @TckRule(id = "R-5.5-01", spec = "spec-runtime-undeploy-release")
    void everyLockHeldIsReleasedByItsOwnerWhenTheApplicationIsUndeployed() {
        List<String> keys = new ArrayList<>(LockHolder.KEYS);
        keys.add(LockHolder.LONG_LEASE_KEY);
        keys.add(LockHolder.AUDIT + "/" + LockHolder.AUDIT_KEY);

        deployer.deploy(DEPLOYMENT);
        Journal held;
        try {
            held = await("every lock acquired and renewed", journal -> heldAndRenewed(journal, keys));
            assertThat(heldAndRenewed(held, keys))
                    .as(
                            "every lock acquired once and renewed within %s; journal:%s",
                            RuntimeTck.scaled(Duration.ofSeconds(30)), held)
                    .isTrue();
            assertThat(held.releases())
                    .as("the application never releases a lock itself; journal:%s", held)
                    .isEmpty();
        } finally {
            deployer.undeploy(DEPLOYMENT);
        }

        // Some adapters (Payara Micro's) return from undeploy once they signalled the server to stop, before
        // the application has stopped: the journal is read until every lock shows a release, within the bound.
        Journal after = await(
                "every lock released by its owner after undeploy",
                journal -> journal.acquired().stream().allMatch(lock -> journal.releasedAt(lock) >= 0));
        List<Journal.Call> acquired = after.acquired();
        assertThat(acquired)
                .as("locks acquired; journal:%s", after)
                .extracting(Journal.Call::key)
                .containsExactlyInAnyOrderElementsOf(keys);
        assertThat(acquired)
                .as("released by their owners at undeploy (not left to expire); journal:%s", after)
                .allMatch(lock -> after.releasedAt(lock) >= 0);
        assertThat(after.releases())
                .as("release calls: one per lock, none for a lock not held; journal:%s", after)
                .hasSameSizeAs(acquired)
                .allMatch(Journal.Call::result);
    }

    /** Reads the journal until {@code done} ({@code what}) holds, at most 30 s (scaled); the last journal read. */
    private static Journal await(String what, Predicate<Journal> done) {
        Duration bound = RuntimeTck.scaled(Duration.ofSeconds(30));
        long deadline = System.nanoTime() + bound.toNanos();
        Journal journal = Journal.read(JOURNAL);
        while (!done.test(journal) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what + " in " + JOURNAL, e);
            }
            journal = Journal.read(JOURNAL);
        }
        return journal;
    }

    /** Every key acquired once, and renewed at least once since: held. */
    private static boolean heldAndRenewed(Journal journal, List<String> keys) {
        List<Journal.Call> acquired = journal.acquired();
        return acquired.size() == keys.size()
                && acquired.stream().map(Journal.Call::key).toList().containsAll(keys)
                && acquired.stream().allMatch(journal::renewed);
    }
}
