package dev.baton.tck.runtime.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.RuntimeTck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two instances of one application in one server (two WARs, {@value #A} and {@value #B}, deployed and
 * undeployed by the test) elect a leader on the JPA store over the platform's default data source, which both
 * reach. In each, an EJB interval timer ({@link RelayTicker}) calls a {@code @Leader("tck-relay")} method
 * ({@link Relay}) every 200 ms, which journals its actions with the term's token; observers journal the
 * grants and revocations ({@link TermJournal}). A leads; B stands by (its calls skip); A is undeployed (the
 * leader dies) and B takes over; A, deployed again, stands by; B is undeployed and A takes over.
 *
 * <p>The journals are files under {@link RuntimeTck#workDirectory()}: the server must run on the same machine
 * as the tests (or share that directory at the same path). Times are the server's {@code System.nanoTime()},
 * one clock for both instances.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
@Tag(RuntimeTck.TAG_EJB)
@Tag(RuntimeTck.TAG_TRANSACTIONS)
@Tag(RuntimeTck.TAG_JPA_DATA_SOURCE)
@Tag(RuntimeTck.TAG_TWO_DEPLOYMENTS)
class LeaderTakeoverTest {

    static final String A = "baton-tck-leader-a";

    static final String B = "baton-tck-leader-b";

    /** The lock's ttl: a stand-by takes over within it. */
    static final Duration TTL = Duration.ofSeconds(5);

    /** This run's journals; keys with a prefix of this run's, so a database kept between runs starts afresh. */
    static final String RUN = UUID.randomUUID().toString();

    static final Path JOURNALS = directory(RuntimeTck.workDirectory().resolve("baton-tck-leadership-" + RUN));

    /** Actions (or skipped calls) an instance must show before the scenario goes on. */
    static final int SOME = 5;

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = A, managed = false, testable = false)
    static WebArchive first() {
        return instance(A);
    }

    @Deployment(name = B, managed = false, testable = false)
    static WebArchive second() {
        return instance(B);
    }

    private static WebArchive instance(String name) {
        return RuntimeTck.withJpaStore(
                RuntimeTck.scenario(name).addClasses(TermJournal.class, Relay.class, RelayTicker.class),
                TermJournal.DIRECTORY,
                JOURNALS.toString(),
                TermJournal.INSTANCE,
                name,
                "baton.prefix",
                "leadership-" + RUN + "/",
                "baton.ttl",
                TTL.toMillis() + "ms");
    }

    @Test
    @TckRule(id = "R-5.7-01", spec = "spec-runtime-leadership-takeover")
    void oneInstanceLeadsAtATimeAndAStandByTakesOverWhenTheLeaderIsUndeployed() {
        boolean aDeployed = false;
        boolean bDeployed = false;
        try {
            deployer.deploy(A);
            aDeployed = true;
            Journals led = await("A granted and acting", j -> j.of("acted", A).size() >= SOME);
            assertThat(led.terms()).as("A leads alone; journals:%s", led).hasSize(1);

            deployer.deploy(B);
            bDeployed = true;
            Journals standing = await(
                    "B's calls skipped while A leads", j -> j.of("skipped", B).size() >= SOME);
            assertThat(standing.terms())
                    .as("B stands by: A still the only term; journals:%s", standing)
                    .extracting(Journals.Term::instance)
                    .containsExactly(A);
            assertThat(standing.of("acted", B)).as("B acted while standing by").isEmpty();
            int actedBeforeB = led.of("acted", A).size();
            assertThat(standing.of("acted", A).size())
                    .as("A goes on acting while B stands by; journals:%s", standing)
                    .isGreaterThan(actedBeforeB);

            long undeployed = System.nanoTime();
            deployer.undeploy(A);
            aDeployed = false;
            Journals taken = await(
                    "B granted after A's undeploy",
                    j -> j.lastTermOf(B).isPresent() && j.of("acted", B).size() >= SOME);
            Duration seenByTheTest = Duration.ofNanos(System.nanoTime() - undeployed);
            Journals.Term aTerm = taken.terms().get(0);
            Journals.Term bTerm = taken.lastTermOf(B)
                    .orElseThrow(() -> new AssertionError(
                            "B was not granted within " + bound() + " of A's undeploy; journals:" + taken));
            assertThat(aTerm.revoked())
                    .as("A's term revoked at its undeploy; journals:%s", taken)
                    .isNotNull();
            assertThat(aTerm.revoked().detail())
                    .as("the reason of A's revocation")
                    .isEqualTo("SHUTDOWN");
            Duration takeover =
                    Duration.ofNanos(bTerm.granted().nanos() - aTerm.revoked().nanos());
            assertThat(takeover)
                    .as("from A's revocation to B's grant, within the ttl; journals:%s", taken)
                    .isPositive()
                    .isLessThan(TTL);
            System.out.printf(
                    "[baton-tck] leadership: A revoked -> B granted in %d ms (undeploy call -> B acting seen by the"
                            + " test in %d ms)%n",
                    takeover.toMillis(), seenByTheTest.toMillis());

            long aEntries =
                    taken.entries().stream().filter(e -> e.instance().equals(A)).count();
            deployer.deploy(A);
            aDeployed = true;
            Journals again = await(
                    "A, deployed again, skipping while B leads",
                    j -> j.of("skipped", A).size() >= taken.of("skipped", A).size() + SOME);
            assertThat(again.entries().stream()
                            .filter(e -> e.instance().equals(A))
                            .count())
                    .isGreaterThan(aEntries);
            assertThat(again.terms())
                    .as("A, deployed again, stands by while B leads; journals:%s", again)
                    .extracting(Journals.Term::instance)
                    .containsExactly(A, B);

            deployer.undeploy(B);
            bDeployed = false;
            Journals back = await(
                    "A granted again after B's undeploy",
                    j -> j.terms().size() == 3
                            && j.of("acted", A).size() >= again.of("acted", A).size() + SOME);
            assertThat(back.terms())
                    .as("A takes over from B; journals:%s", back)
                    .extracting(Journals.Term::instance)
                    .containsExactly(A, B, A);
        } finally {
            if (bDeployed) {
                deployer.undeploy(B);
            }
            if (aDeployed) {
                deployer.undeploy(A);
            }
        }

        Journals done = await("every term revoked", j -> j.terms().stream().allMatch(t -> t.revoked() != null));
        checkTerms(done);
        System.out.printf(
                "[baton-tck] leadership: %d terms, %d actions (A %d, B %d), %d skipped calls, %d calls between a"
                        + " term's start and its event%n",
                done.terms().size(),
                done.of("acted").size(),
                done.of("acted", A).size(),
                done.of("acted", B).size(),
                done.of("skipped").size(),
                done.of("unseen").size());
    }

    /** What the journals must show, whatever the timing: one term at a time, tokens up, actions inside terms. */
    private static void checkTerms(Journals journals) {
        List<Journals.Term> terms = journals.terms();
        assertThat(terms)
                .as("every term ended, at an undeploy, with the reason SHUTDOWN; journals:%s", journals)
                .allSatisfy(t -> {
                    assertThat(t.revoked()).as("revocation of %s", t).isNotNull();
                    assertThat(t.revoked().detail()).as("revocation of %s", t).isEqualTo("SHUTDOWN");
                });
        for (int i = 1; i < terms.size(); i++) {
            Journals.Term before = terms.get(i - 1);
            Journals.Term after = terms.get(i);
            assertThat(after.granted().nanos())
                    .as("%s begins after %s ended; journals:%s", after, before, journals)
                    .isGreaterThan(before.revoked().nanos());
            assertThat(after.token())
                    .as("the token of %s, above that of %s; journals:%s", after, before, journals)
                    .isGreaterThan(before.token());
        }
        List<Journals.Entry> actions = journals.of("acted");
        assertThat(actions)
                .as("every action inside a term of its instance, with the term's token; journals:%s", journals)
                .allMatch(action -> terms.stream().anyMatch(t -> t.contains(action)));
        for (int i = 1; i < actions.size(); i++) {
            Journals.Entry before = actions.get(i - 1);
            Journals.Entry after = actions.get(i);
            assertThat(after.nanos())
                    .as("action %s starts after %s ended: no two actions overlap", after, before)
                    .isGreaterThanOrEqualTo(before.end());
        }
    }

    /** Reads the journals until {@code done} ({@code what}) holds, at most {@link #bound()}; the last read. */
    private static Journals await(String what, Predicate<Journals> done) {
        long deadline = System.nanoTime() + bound().toNanos();
        Journals journals = Journals.read(JOURNALS, A, B);
        while (!done.test(journals) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what + " in " + JOURNALS, e);
            }
            journals = Journals.read(JOURNALS, A, B);
        }
        assertThat(done.test(journals))
                .as("%s within %s; journals:%s", what, bound(), journals)
                .isTrue();
        return journals;
    }

    private static Duration bound() {
        return RuntimeTck.scaled(Duration.ofSeconds(30));
    }

    private static Path directory(Path path) {
        try {
            return Files.createDirectories(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the journals' directory " + path, e);
        }
    }
}
