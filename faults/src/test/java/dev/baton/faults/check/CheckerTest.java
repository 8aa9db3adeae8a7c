package dev.baton.faults.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.baton.faults.history.Event;
import dev.baton.faults.history.HistoryReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker on hand-made histories: every rule can fail, and explained cases do not. */
class CheckerTest {

    private static final long MS = 1_000_000;
    private final Checker checker = new Checker(CheckSettings.forTtl(1_500));
    private final List<Event> workers = new ArrayList<>();
    private final List<Event> nemesis = new ArrayList<>();
    private final List<Event> journal = new ArrayList<>();

    /** A whole section: asked at {@code req}, entered at {@code enter}, exited at {@code exit} (ms; -1: no exit line). */
    private void section(long pid, String key, long token, long req, long enter, long exit) {
        workers.add(Event.of(
                "enter",
                enter * MS,
                "pid",
                pid,
                "thr",
                "t1",
                "key",
                key,
                "tok",
                token,
                "api",
                "sync",
                "req",
                req * MS));
        workers.add(Event.of("fenced", enter * MS + 1, "pid", pid, "thr", "t1", "key", key, "tok", token, "rows", 1));
        if (exit >= 0) {
            workers.add(Event.of("exit", exit * MS, "pid", pid, "thr", "t1", "key", key, "tok", token, "held", true));
        }
    }

    private void fault(String id, String kind, long pid, long begin, long heal) {
        nemesis.add(Event.of("fault", begin * MS, "id", id, "kind", kind, "pid", pid, "slot", 0));
        if (heal >= 0) {
            nemesis.add(Event.of("heal", heal * MS, "id", id));
        }
    }

    private Report check() {
        return checker.check("test", new RunData(workers, nemesis, journal));
    }

    @Test
    void sequentialSectionsWithGrowingTokensPass() {
        section(1, "k", 10, 0, 5, 100);
        section(2, "k", 11, 50, 120, 200);
        section(1, "k", 12, 150, 210, 300);
        journal.add(Event.of("lockrow", 1, "key", "k", "tok", 10, "owner", "a", "at", "t"));
        journal.add(Event.of("lockrow", 2, "key", "k", "tok", 11, "owner", "b", "at", "t"));
        journal.add(Event.of("lockrow", 3, "key", "k", "tok", 12, "owner", "c", "at", "t"));
        journal.add(Event.of(
                "fencedrow", 4, "key", "k", "old", 10, "new", 11, "pid", 2, "cur", 11, "live", true, "at", "t"));
        journal.add(Event.of("counterrow", 5, "key", "k", "old", 3, "new", 4, "pid", 2, "tok", 11, "at", "t"));

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.figures()).anyMatch(f -> f.startsWith("sections: 3 "));
    }

    @Test
    void anOverlapNoFaultExplainsFails() {
        section(1, "k", 10, 0, 5, 100);
        section(2, "k", 11, 0, 50, 150);

        Report report = check();

        assertThat(report.violations(Report.UNEXPLAINED_OVERLAP))
                .hasSize(1)
                .first()
                .asString()
                .contains("pid 1 thr t1 tok 10")
                .contains("overlaps pid 2")
                .contains("for 50 ms");
        assertThat(report.failed()).isTrue();
    }

    @Test
    void aStopOfTheOlderHolderExplainsTheOverlap() {
        section(1, "k", 10, 0, 5, 2_500);
        fault("f1", "stop", 1, 20, 2_400);
        section(2, "k", 11, 0, 1_600, 1_700);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.figures())
                .anyMatch(f -> f.contains("overlaps explained") && f.contains(": 1 pairs, 2 sections"));
    }

    @Test
    void aPartitionOfTheNewerHolderDoesNotExplainIt() {
        section(1, "k", 10, 0, 5, 2_500);
        fault("f1", "partition", 2, 20, 2_400);
        section(2, "k", 11, 0, 1_600, 1_700);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    @Test
    void theOlderHolderIsTheSmallerTokenNotTheEarlierEntry() {
        // pid 1 got token 10, was cut off before it could say so, and entered after pid 2 (token 11)
        section(2, "k", 11, 0, 1_600, 1_700);
        section(1, "k", 10, 0, 1_650, 1_690);
        fault("f1", "partition", 1, 10, 1_640);

        assertThat(check().violationCount()).isZero();
    }

    @Test
    void aSelfNoticedPauseLongerThanARenewalIntervalExplains() {
        section(1, "k", 10, 0, 5, 2_500);
        workers.add(Event.of("hiccup", 2_000 * MS, "pid", 1, "ms", 1_800));
        section(2, "k", 11, 0, 1_600, 1_700);

        Report report = check();

        assertThat(report.violationCount()).isZero();
        assertThat(report.figures())
                .contains(
                        "pauses of at least 500 ms that workers noticed themselves, not caused by a SIGSTOP: 1 (longest 1800 ms)");
    }

    @Test
    void aShortPauseDoesNotExplain() {
        section(1, "k", 10, 0, 5, 2_500);
        workers.add(Event.of("hiccup", 1_000 * MS, "pid", 1, "ms", 300));
        section(2, "k", 11, 0, 1_600, 1_700);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    @Test
    void aSectionWithoutExitLastsUntilItsProcessDied() {
        section(1, "k", 10, 0, 5, -1);
        nemesis.add(Event.of("died", 300 * MS, "slot", 0, "pid", 1, "code", 143, "expected", true));
        section(2, "k", 11, 0, 200, 250);
        section(3, "k", 12, 0, 400, 450);

        Report report = check();

        assertThat(report.violations(Report.UNEXPLAINED_OVERLAP))
                .hasSize(1)
                .first()
                .asString()
                .contains("process gone +0.295s")
                .contains("overlaps pid 2");
    }

    @Test
    void aTermIsNoExcuse() {
        section(1, "k", 10, 0, 5, 400);
        fault("f1", "term", 1, 100, -1);
        section(2, "k", 11, 0, 200, 250);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP))
                .hasSize(1)
                .first()
                .asString()
                .contains("pid 1 got term at +0.095s");
    }

    @Test
    void aLowerTokenAfterAHigherOneEndedIsARegression() {
        section(1, "k", 20, 0, 5, 10);
        section(2, "k", 13, 0, 20, 30);

        assertThat(check().violations(Report.TOKENS))
                .hasSize(1)
                .first()
                .asString()
                .contains("tok 13");
    }

    @Test
    void oneTokenForTwoHoldersIsARegressionAndAnOverlap() {
        section(1, "k", 20, 0, 5, 100);
        section(2, "k", 20, 0, 50, 150);

        Report report = check();

        assertThat(report.violations(Report.TOKENS)).hasSize(1);
        assertThat(report.violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    @Test
    void theLockTableGoingBackIsARegression() {
        journal.add(Event.of("lockrow", 1, "key", "k", "tok", 10, "owner", "a", "at", "t"));
        journal.add(Event.of("lockrow", 2, "key", "k", "tok", 9, "owner", "b", "at", "t"));

        assertThat(check().violations(Report.TOKENS))
                .hasSize(1)
                .first()
                .asString()
                .contains("from token 10 to 9");
    }

    @Test
    void aTokenTheLockTableNeverHadIsARegression() {
        section(1, "k", 10, 0, 5, 10);
        journal.add(Event.of("lockrow", 1, "key", "k", "tok", 11, "owner", "a", "at", "t"));

        assertThat(check().violations(Report.TOKENS))
                .hasSize(1)
                .first()
                .asString()
                .contains("never held");
    }

    @Test
    void fencedWritesOutOfOrderOrFromAStaleTokenFail() {
        journal.add(
                Event.of("fencedrow", 1, "key", "k", "old", 0, "new", 5, "pid", 1, "cur", 5, "live", true, "at", "t"));
        journal.add(
                Event.of("fencedrow", 2, "key", "k", "old", 5, "new", 3, "pid", 2, "cur", 3, "live", true, "at", "t"));
        journal.add(
                Event.of("fencedrow", 3, "key", "k", "old", 3, "new", 6, "pid", 2, "cur", 7, "live", true, "at", "t"));
        journal.add(
                Event.of("fencedrow", 4, "key", "k", "old", 6, "new", 7, "pid", 2, "cur", 7, "live", false, "at", "t"));

        Report report = check();

        assertThat(report.violations(Report.FENCE)).hasSize(2);
        assertThat(report.violations(Report.FENCE).get(0)).contains("token 3").contains("after token 5");
        assertThat(report.violations(Report.FENCE).get(1)).contains("lock row held token 7");
        assertThat(report.figures()).anyMatch(f -> f.contains("(1 at or just past the lease's end"));
    }

    @Test
    void aLostUpdateIsExplainedOnlyByAnExplainedOverlap() {
        section(1, "k", 10, 0, 5, 2_500);
        section(2, "k", 11, 0, 1_600, 1_700);
        journal.add(Event.of("counterrow", 1, "key", "k", "old", 4, "new", 5, "pid", 2, "tok", 11, "at", "t"));
        journal.add(Event.of("counterrow", 2, "key", "k", "old", 5, "new", 5, "pid", 1, "tok", 10, "at", "t"));

        Report unexplained = check();
        fault("f1", "stop", 1, 20, 2_400);
        Report explained = check();

        assertThat(unexplained.violations(Report.LOST_UPDATES))
                .hasSize(1)
                .first()
                .asString()
                .contains("wrote 5 over 5 (1 increment(s) lost");
        assertThat(explained.violations(Report.LOST_UPDATES)).isEmpty();
        assertThat(explained.figures()).anyMatch(f -> f.endsWith("1 lost updates explained by a fault"));
    }

    @Test
    void aLostUpdateWithoutAnyOverlapFails() {
        section(1, "k", 10, 0, 5, 100);
        journal.add(Event.of("counterrow", 1, "key", "k", "old", 7, "new", 3, "pid", 1, "tok", 10, "at", "t"));

        assertThat(check().violations(Report.LOST_UPDATES)).hasSize(1);
    }

    @Test
    void reportsTheTimeFromAKillToTheNextAcquisition() {
        section(1, "k", 10, 0, 5, -1);
        fault("f1", "kill9", 1, 100, -1);
        nemesis.add(Event.of("died", 110 * MS, "slot", 0, "pid", 1, "code", 137, "expected", true));
        section(2, "k", 11, 0, 1_700, 1_750);
        section(3, "j", 12, 0, 3_200, 3_250);
        fault("f2", "db-outage", 0, 1_800, 3_000);

        Report report = check();

        assertThat(report.violationCount()).isZero();
        assertThat(report.figures())
                .anyMatch(f -> f.startsWith("kill9 of a holder -> next acquisition of its key: n=1 p50=1600 ms")
                        && f.contains("0 over ttl"));
        assertThat(report.figures())
                .anyMatch(
                        f -> f.equals(
                                "store's server back after db-outage -> first acquisition: n=1 p50=200 ms p99=200 ms max=200 ms"));
        assertThat(report.tally().faultRows("s"))
                .contains(
                        "| s | kill9 | 1 | 0 | 0 | 1,600 / 1,600 ms |", "| s | db-outage | 1 | 0 | 0 | 200 / 200 ms |");
    }

    /**
     * A store that frees a dead holder's lock at once (advisory mode, the file store) lets the next holder in
     * between the kill and the moment the nemesis sees the process gone: no overlap, the section ended at the kill.
     */
    @Test
    void aKilledHoldersSectionEndsAtItsKillNotWhenItWasSeenGone() {
        section(1, "k", 10, 0, 5, -1);
        fault("f1", "kill9", 1, 100, -1);
        section(2, "k", 11, 0, 130, 150);
        nemesis.add(Event.of("died", 160 * MS, "slot", 0, "pid", 1, "code", 137, "expected", true));

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).isEmpty();
    }

    @Test
    void aKilledWorkerThatStillExitedItsSectionHeldNothing() {
        section(1, "k", 10, 0, 5, 102);
        fault("f1", "kill9", 1, 100, -1);
        section(2, "k", 11, 0, 130, 150);

        assertThat(check().figures())
                .anyMatch(f -> f.startsWith("kill9 of a holder") && f.endsWith("victims holding nothing: 1"));
    }

    @Test
    void reportsCrashesHangsAndUndocumentedExceptions() {
        nemesis.add(Event.of("spawn", 0, "slot", 0, "pid", 1));
        nemesis.add(Event.of("died", 10 * MS, "slot", 0, "pid", 1, "code", 1, "expected", false));
        nemesis.add(Event.of("hung", 20 * MS, "slot", 1, "pid", 2, "silentMs", 30_000));
        workers.add(Event.of(
                "fail", 5 * MS, "pid", 2, "thr", "t1", "key", "k", "req", 0, "ex", "LockTimeoutException", "msg", "m"));
        workers.add(Event.of(
                "error",
                6 * MS,
                "pid",
                2,
                "thr",
                "t1",
                "key",
                "k",
                "ex",
                "java.lang.IllegalStateException",
                "msg",
                "boom"));

        Report report = check();

        assertThat(report.figures()).anyMatch(f -> f.contains("1 crashed") && f.contains("1 hung"));
        assertThat(report.figures()).anyMatch(f -> f.contains("{LockTimeoutException=1}"));
        assertThat(report.figures())
                .anyMatch(f -> f.contains("not a LockException: {java.lang.IllegalStateException=1}"));
    }

    @Test
    void fairnessWaitsAndTimeouts() {
        nemesis.add(Event.of("phase", 0, "name", "fairness", "edge", "begin"));
        section(1, "fair", 10, 0, 100, 150);
        section(2, "fair", 11, 0, 300, 350);
        workers.add(Event.of(
                "fail",
                400 * MS,
                "pid",
                3,
                "thr",
                "t1",
                "key",
                "fair",
                "req",
                0,
                "ex",
                "LockTimeoutException",
                "msg",
                "m"));
        nemesis.add(Event.of("phase", 1_000 * MS, "name", "fairness", "edge", "end"));

        assertThat(check().figures())
                .anyMatch(
                        f -> f.equals(
                                "fairness, 2 processes on one key, no faults: wait n=2 p50=100 ms p99=300 ms max=300 ms, acquire timeouts 1"));
        // Sections of 50 ms, one hand-off of 150 ms: the target is 4 x 200 ms.
        assertThat(check().figures())
                .anyMatch(
                        f -> f.equals(
                                "fairness target: section 50 ms + hand-off 150.0 ms (means;"
                                        + " hand-off p50 150.0 ms): p99 wait 300 ms is within 4 x (section + hand-off) = 800 ms; sections per process [1, 1]"));
    }

    @Test
    void aTornLastLineIsSkipped() {
        assertThat(HistoryReader.parse("enter\t1\tpid=1\nexit\t2\tpi")).hasSize(1);
        assertThat(HistoryReader.parse("garbage\nenter\t1\tpid=1\n")).hasSize(1);
    }

    @Test
    void overlapsAreClassifiedByTheFaultThatExplainsThem() {
        section(1, "k", 10, 0, 5, 2_500);
        fault("f1", "partition", 1, 20, 2_400);
        section(2, "k", 11, 0, 1_600, 1_700);
        section(3, "j", 20, 0, 5, 2_500);
        fault("f2", "stop", 3, 20, 2_400);
        section(4, "j", 21, 0, 1_600, 1_650);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().overlapsByCause()).containsExactly(entry("partition", 1), entry("stop", 1));
        assertThat(report.figures())
                .contains("overlaps explained by a fault of the older holder, by cause (pairs): {partition=1, stop=1}");
        assertThat(report.tally().faultRows("s"))
                .contains(
                        "| s | partition | 1 | 1 (longest 100 ms) | 0 | — |",
                        "| s | stop | 1 | 1 (longest 50 ms) | 0 | — |");
    }

    @Test
    void anEndedSessionOfTheOlderHolderExplainsTheOverlapAsSessionKill() {
        // advisory mode: the database ends the holder's session and frees its lock; the holder learns it later
        section(1, "k", 10, 0, 5, 900);
        fault("f1", "session-kill", 1, 300, 301);
        section(2, "k", 11, 0, 320, 400);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().overlapsByCause()).containsExactly(entry("session-kill", 1));
    }

    @Test
    void aPausedStoreServerExplainsEveryHoldersLossAsStoreStop() {
        section(1, "k", 10, 0, 5, 4_000);
        fault("f1", "store-stop", 0, 100, 2_800);
        section(2, "k", 11, 0, 2_900, 3_000);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().overlapsByCause()).containsExactly(entry("store-stop", 1));
    }

    @Test
    void aPauseANemesisStopCausedIsClassifiedAsTheStop() {
        section(1, "k", 10, 0, 5, 2_500);
        fault("f1", "stop", 1, 20, 2_200);
        workers.add(Event.of("hiccup", 2_210 * MS, "pid", 1, "ms", 2_150));
        section(2, "k", 11, 0, 1_600, 1_700);

        assertThat(check().tally().overlapsByCause()).containsExactly(entry("stop", 1));
    }

    @Test
    void aReaderOfLockFilesInsideTheHoldersJvmExplainsNothing() {
        section(1, "k", 10, 0, 5, 500);
        fault("f1", "reader", 1, 100, 101);
        section(2, "k", 11, 0, 200, 300);

        Report report = check();

        assertThat(report.violations(Report.UNEXPLAINED_OVERLAP))
                .singleElement()
                .asString()
                .contains("pid 1 got reader at");
        assertThat(report.tally().unexplainedOverlaps).isEqualTo(1);
    }

    @Test
    void tokenColumnWritesAreCheckedForOrderWithoutALockRow() {
        journal.add(Event.of("fencedrow", 1, "key", "k", "old", 0, "new", 5, "pid", 1, "at", "t"));
        journal.add(Event.of("fencedrow", 2, "key", "k", "old", 5, "new", 3, "pid", 2, "at", "t"));
        journal.add(Event.of("fencedrow", 3, "key", "k", "old", 3, "new", 6, "pid", 2, "at", "t"));

        Report report = check();

        assertThat(report.violations(Report.FENCE))
                .singleElement()
                .asString()
                .contains("token 3")
                .contains("after token 5");
        assertThat(report.figures()).anyMatch(f -> f.contains("3 accepted token-column writes"));
        assertThat(report.tally().storeRow("s")).contains("| token column |");
    }

    @Test
    void aTokenColumnWriteAfterANewerHolderEnteredIsCountedAsSuperseded() {
        section(1, "k", 10, 0, 5, 2_500); // its write (at 6 ms) came before pid 2 entered: not superseded
        section(2, "k", 11, 0, 1_600, 1_700);
        workers.add(Event.of("fenced", 2_000 * MS, "pid", 1, "thr", "t1", "key", "k", "tok", 10, "rows", 1));
        fault("f1", "stop", 1, 20, 1_900);
        journal.add(Event.of("fencedrow", 1, "key", "k", "old", 0, "new", 11, "pid", 2, "at", "t"));

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().staleAccepted).isEqualTo(1);
    }

    @Test
    void aLostUpdateIsCountedAgainstTheCauseOfItsWritersOverlap() {
        section(1, "k", 10, 0, 5, 2_500);
        section(2, "k", 11, 0, 1_600, 1_700);
        fault("f1", "partition", 1, 20, 2_400);
        journal.add(Event.of("counterrow", 1, "key", "k", "old", 4, "new", 5, "pid", 2, "tok", 11, "at", "t"));
        journal.add(Event.of("counterrow", 2, "key", "k", "old", 5, "new", 5, "pid", 1, "tok", 10, "at", "t"));

        Report report = check();

        assertThat(report.violationCount()).isZero();
        assertThat(report.tally().faultRows("s")).contains("| s | partition | 1 | 1 (longest 100 ms) | 1 | — |");
    }

    /** A term of the election: granted at {@code grant}, revoked at {@code revoke} (ms; -1: no revoked line). */
    private void term(long pid, long token, long grant, long revoke) {
        workers.add(Event.of("granted", grant * MS, "pid", pid, "name", "faults", "tok", token));
        if (revoke >= 0) {
            workers.add(Event.of("revoked", revoke * MS, "pid", pid, "name", "faults", "tok", token, "reason", "LOST"));
        }
    }

    @Test
    void twoOverlappingLeaderTermsFail() {
        term(1, 10, 0, 2_000);
        term(2, 11, 1_500, 4_000); // granted while pid 1 still led, and nothing happened to pid 1

        Report report = check();

        assertThat(report.violations(Report.UNEXPLAINED_OVERLAP))
                .hasSize(1)
                .first()
                .asString()
                .contains("leader terms: pid 1 term tok 10 granted +0.000s revoked +2.000s (LOST)")
                .contains("overlaps pid 2 term tok 11")
                .contains("for 500 ms");
        assertThat(report.tally().leadershipRow("s")).hasValue("| s | 2 | none | 0 | — | none | 1 |");
    }

    @Test
    void leaderTermsOneAfterTheOtherPass() {
        term(1, 10, 0, 2_000);
        term(2, 11, 2_100, 4_000);
        term(1, 12, 4_050, -1);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.figures()).anyMatch(f -> f.startsWith("leadership: 3 terms by 2 processes"));
    }

    @Test
    void aLeaderTermWithoutRevokedLineEndsAtTheKillOfItsProcess() {
        term(1, 10, 0, -1);
        fault("f1", "kill9", 1, 1_000, -1);
        nemesis.add(Event.of("died", 3_000 * MS, "slot", 0, "pid", 1, "code", 137, "expected", true));
        term(2, 11, 2_900, 5_000); // before the nemesis saw pid 1 gone, after its kill

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.figures())
                .anyMatch(f ->
                        f.startsWith("takeover (fault of the leader -> next grant to another process): n=1 p50=1900 ms")
                                && f.endsWith("; kill9 1,900 / 1,900 ms"));
        assertThat(report.tally().leadershipRow("s")).hasValue("| s | 2 | kill9=1 | 1 | 1,900 / 1,900 ms | none | 0 |");
    }

    @Test
    void aStopOfTheOlderLeaderExplainsOverlappingTerms() {
        term(1, 10, 0, 3_000); // stopped: its revoked line came only after SIGCONT
        fault("f1", "stop", 1, 500, 2_900);
        term(2, 11, 2_600, 5_000);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().leadershipRow("s"))
                .hasValue("| s | 2 | stop=1 | 1 | 2,100 / 2,100 ms | stop=1 | 0 |");
    }

    @Test
    void aStopOfTheNewerLeaderDoesNotExplainOverlappingTerms() {
        term(1, 10, 0, 3_000);
        fault("f1", "stop", 2, 500, 2_900);
        term(2, 11, 2_600, 5_000);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    @Test
    void aTermThatOutlivedTheFaultIsNoTakeover() {
        term(1, 10, 0, 9_000); // a slow link that did not cost the lease
        fault("f1", "slow", 1, 500, 2_500);
        term(2, 11, 9_100, 10_000);

        Report report = check();

        assertThat(report.violationCount()).isZero();
        assertThat(report.figures()).anyMatch(f -> f.contains("terms that outlived the fault: 1"));
        assertThat(report.tally().leadershipRow("s")).hasValue("| s | 2 | slow=1 | 0 | — | none | 0 |");
    }

    @Test
    void aTakeoverIsCountedFromTheLastFaultBeforeTheTermEnded() {
        term(1, 10, 0, -1);
        fault("f1", "slow", 1, 500, 2_500); // the leader kept its lease through it ...
        fault("f2", "kill9", 1, 3_000, -1); // ... and this ended its term
        term(2, 11, 5_000, 6_000);

        Report report = check();

        assertThat(report.tally().leadershipRow("s"))
                .hasValue("| s | 2 | kill9=1, slow=1 | 1 | 2,000 / 2,000 ms | none | 0 |");
    }

    @Test
    void aLeaderThatWinsTheNextTermAgainIsNoTakeover() {
        // advisory mode: the stopped leader's session kept the lock, nobody else could get in
        term(1, 10, 0, 3_000);
        fault("f1", "stop", 1, 500, 2_990);
        term(1, 12, 3_010, 6_000);
        term(2, 13, 6_100, 7_000);

        Report report = check();

        assertThat(report.violationCount()).isZero();
        assertThat(report.figures()).anyMatch(f -> f.contains("leaders that won the next term again: 1"));
        assertThat(report.tally().leadershipRow("s")).hasValue("| s | 3 | stop=1 | 0 | — | none | 0 |");
    }

    @Test
    void aLostUpdateOfALeaderActionIsMatchedToTheActionThatWroteIt() {
        // two actions of one term (one token): the first overlapped the next leader's, its session ended
        section(1, "leader:faults", 10, 0, 100, 300);
        workers.add(Event.of(
                "counter", 290 * MS, "pid", 1, "thr", "t1", "key", "leader:faults", "tok", 10, "read", 4, "wrote", 5));
        fault("f1", "session-kill", 1, 90, 95);
        section(2, "leader:faults", 11, 0, 200, 250);
        section(1, "leader:faults", 10, 0, 400, 450); // a later action of the same term, in no overlap
        workers.add(Event.of(
                "counter", 440 * MS, "pid", 1, "thr", "t1", "key", "leader:faults", "tok", 10, "read", 6, "wrote", 7));
        journal.add(
                Event.of("counterrow", 1, "key", "leader:faults", "old", 4, "new", 5, "pid", 2, "tok", 11, "at", "t"));
        journal.add(
                Event.of("counterrow", 2, "key", "leader:faults", "old", 5, "new", 5, "pid", 1, "tok", 10, "at", "t"));
        journal.add(
                Event.of("counterrow", 3, "key", "leader:faults", "old", 6, "new", 7, "pid", 1, "tok", 10, "at", "t"));

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().faultRows("s"))
                .anyMatch(r -> r.startsWith("| s | session-kill | 1 | 1 (") && r.endsWith(" | 1 | — |"));
    }

    @Test
    void overlappingLeaderActionsFailLikeSections() {
        // the leader's actions are sections of the election's key: two leaders acting at once is an overlap
        section(1, "leader:faults", 10, 0, 100, 200);
        section(2, "leader:faults", 11, 0, 150, 250);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    @Test
    void aLeaderActionTheApplicationLetRunPastItsRevocationIsExplainedAsStillActing() {
        // the application's observer of the revocation stopped waiting for the action (SIGTERM, drain over) at 180;
        // Baton then released the lock, and the next leader acted at 190
        section(1, "leader:faults", 10, 0, 100, 300);
        workers.add(Event.of("acting", 180 * MS, "pid", 1, "tok", 10, "waited", 1000));
        section(2, "leader:faults", 11, 0, 190, 250);

        Report report = check();
        assertThat(report.violations(Report.UNEXPLAINED_OVERLAP)).isEmpty();
        assertThat(report.figures()).anyMatch(f -> f.contains("by cause (pairs): {" + Interval.STILL_ACTING + "=1}"));
    }

    @Test
    void aLeaderActionOverlappedBeforeTheApplicationStoppedWaitingIsNotExplained() {
        // the next leader acted at 150, before the application let the revocation go (180): Baton released early
        section(1, "leader:faults", 10, 0, 100, 300);
        workers.add(Event.of("acting", 180 * MS, "pid", 1, "tok", 10, "waited", 1000));
        section(2, "leader:faults", 11, 0, 150, 250);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    @Test
    void stillActingExplainsNoSectionOfAnotherKeyWithTheSameToken() {
        section(1, "k0", 10, 0, 100, 300);
        workers.add(Event.of("acting", 180 * MS, "pid", 1, "tok", 10, "waited", 1000)); // the term tok 10
        section(2, "k0", 11, 0, 190, 250);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    @Test
    void stillActingExplainsOnlyTheTermItNames() {
        section(1, "leader:faults", 10, 0, 100, 300);
        workers.add(Event.of("acting", 50 * MS, "pid", 1, "tok", 9, "waited", 1000)); // an earlier term's
        section(2, "leader:faults", 11, 0, 190, 250);

        assertThat(check().violations(Report.UNEXPLAINED_OVERLAP)).hasSize(1);
    }

    /**
     * A section of the shared mode on its key: {@code permit} (one of 3 permits of {@code permits}), {@code read} or
     * {@code write} (of {@code rw}); asked at {@code req}, entered at {@code enter}, exited at {@code exit} (ms; -1: no
     * exit line). Each process has one thread per mode.
     */
    private void shared(long pid, String mode, long token, long req, long enter, long exit) {
        String key = "permit".equals(mode) ? "permits" : "rw";
        String thread = "permit".equals(mode) ? "permit" : "rw";
        List<Object> fields = new ArrayList<>(List.of(
                "pid", pid, "thr", thread, "key", key, "tok", token, "api", "call", "req", req * MS, "mode", mode));
        if ("permit".equals(mode)) {
            fields.addAll(List.of("limit", 3));
        }
        workers.add(Event.of("enter", enter * MS, fields.toArray()));
        if (exit >= 0) {
            workers.add(Event.of("exit", exit * MS, "pid", pid, "thr", thread, "key", key, "tok", token, "held", true));
        }
    }

    @Test
    void asManyHoldersAsPermitsReadersTogetherAndAWriterAlonePass() {
        shared(1, "permit", 10, 0, 5, 100);
        shared(2, "permit", 11, 0, 10, 100);
        shared(3, "permit", 12, 0, 20, 100);
        shared(4, "permit", 14, 50, 100, 150); // entered as the first three left
        shared(1, "read", 20, 0, 5, 100);
        shared(2, "read", 21, 0, 10, 100);
        shared(3, "read", 22, 0, 20, 100);
        shared(4, "read", 23, 0, 30, 100);
        shared(4, "write", 24, 40, 110, 150);
        shared(1, "read", 25, 120, 160, 200);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().sharedRow("s"))
                .hasValue("| s | 4 / 5 / 1 | 3 (of 3) / 4 / 1 | none | none | 0 | 0 | 0 |");
        assertThat(report.figures()).anyMatch(f -> f.startsWith("sections: 0 ")); // not the exclusive keys' sections
    }

    @Test
    void aFourthHolderOfThreePermitsFails() {
        shared(1, "permit", 10, 0, 5, 100);
        shared(2, "permit", 11, 0, 10, 100);
        shared(3, "permit", 12, 0, 20, 100);
        shared(4, "permit", 13, 0, 30, 100);

        Report report = check();

        assertThat(report.violations(Report.PERMITS_EXCEEDED))
                .singleElement()
                .asString()
                .startsWith("permits: pid 4 thr permit tok 13 (call, permit) entered +0.025s") // the run began at 5 ms
                .contains("beside 3 live older holder(s) (its limit: 3 holders)")
                .contains("| pid 1 thr permit tok 10");
        assertThat(report.violations(Report.WRITER_NOT_ALONE)).isEmpty();
        assertThat(report.tally().sharedRow("s"))
                .hasValueSatisfying(
                        row -> assertThat(row).contains("| 4 (of 3) /").endsWith("| 1 | 0 | 0 |"));
    }

    @Test
    void aWriterBesideAReaderFails() {
        shared(1, "read", 10, 0, 5, 100);
        shared(2, "write", 11, 0, 50, 150);

        assertThat(check().violations(Report.WRITER_NOT_ALONE))
                .singleElement()
                .asString()
                .startsWith("rw: pid 2 thr rw tok 11 (call, write)")
                .contains("beside 1 live older holder(s) | pid 1 thr rw tok 10 (call, read)");
    }

    @Test
    void aReaderBesideAWriterFails() {
        shared(1, "write", 10, 0, 5, 100);
        shared(2, "read", 11, 0, 50, 150);
        shared(3, "read", 12, 0, 60, 150);

        Report report = check();

        assertThat(report.violations(Report.WRITER_NOT_ALONE))
                .hasSize(2)
                .allSatisfy(v -> assertThat(v).contains("(a reader: no writer allowed) | pid 1 thr rw tok 10"));
        assertThat(report.violations(Report.PERMITS_EXCEEDED)).isEmpty();
    }

    @Test
    void aWriterBesideAWriterFails() {
        shared(1, "write", 10, 0, 5, 100);
        shared(2, "write", 11, 0, 50, 150);

        assertThat(check().violations(Report.WRITER_NOT_ALONE)).hasSize(1);
    }

    @Test
    void aStopOfAnOlderPermitHolderExplainsAFourthHolder() {
        // pid 1 was stopped past its lease: its permit went to pid 4 while its section had not ended
        shared(1, "permit", 10, 0, 5, 2_500);
        fault("f1", "stop", 1, 20, 2_400);
        shared(2, "permit", 11, 0, 1_500, 2_600);
        shared(3, "permit", 12, 0, 1_550, 2_600);
        shared(4, "permit", 13, 0, 1_600, 2_600);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().sharedRow("s"))
                .hasValue("| s | 4 / 0 / 0 | 4 (of 3) / 0 / 0 | stop=1 | stop=1 (1,580 ms) | 0 | 0 | 0 |");
    }

    @Test
    void aStopOfTheNewestPermitHolderExplainsNothing() {
        shared(1, "permit", 10, 0, 5, 2_500);
        shared(2, "permit", 11, 0, 1_500, 2_600);
        shared(3, "permit", 12, 0, 1_550, 2_600);
        fault("f1", "stop", 4, 20, 1_590);
        shared(4, "permit", 13, 0, 1_600, 2_600);

        assertThat(check().violations(Report.PERMITS_EXCEEDED)).hasSize(1);
    }

    @Test
    void aReaderThatPausedPastItsLeaseExplainsTheWriterBesideIt() {
        shared(1, "read", 10, 0, 5, 2_500);
        workers.add(Event.of("hiccup", 2_000 * MS, "pid", 1, "ms", 1_800)); // a GC pause, an overloaded machine
        shared(2, "write", 11, 0, 1_600, 1_700);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
        assertThat(report.tally().sharedRow("s"))
                .hasValueSatisfying(row -> assertThat(row).contains("| none | own-pause=1 (1,400 ms) | 0 | 0 | 0 |"));
    }

    @Test
    void eachSharedHolderIsJudgedByItsOwnLimit() {
        // two holders that asked for 3 permits, and one that asked for 2: it must not have got in beside them
        shared(1, "permit", 10, 0, 5, 100);
        shared(2, "permit", 11, 0, 10, 100);
        workers.add(Event.of(
                "enter", 20 * MS, "pid", 3, "thr", "permit", "key", "permits", "tok", 12, "api", "sync", "req", 0,
                "mode", "permit", "limit", 2));

        assertThat(check().violations(Report.PERMITS_EXCEEDED))
                .singleElement()
                .asString()
                .contains("tok 12")
                .contains("(its limit: 2 holders)");
    }

    @Test
    void twoSharedHoldersWithOneTokenFail() {
        shared(1, "read", 10, 0, 5, 100);
        shared(2, "read", 10, 0, 50, 150);

        Report report = check();

        assertThat(report.violations(Report.TOKENS)).singleElement().asString().contains("rw: token 10 held by two");
        assertThat(report.tally().sharedRow("s"))
                .hasValueSatisfying(row -> assertThat(row).endsWith("| 1 |"));
    }

    @Test
    void aReaderWithATokenBelowOneOfAnEndedWriterFails() {
        shared(1, "write", 20, 0, 5, 10);
        shared(2, "read", 13, 0, 20, 30);

        assertThat(check().violations(Report.TOKENS)).singleElement().asString().contains("tok 13");
    }

    /**
     * Seen on Redis: a reader granted first may write its enter line only after another reader, granted a moment
     * later, has left: both held the key together, so their tokens say nothing of the order of their lines.
     */
    @Test
    void aSharedHolderGrantedFirstMayEnterAfterAnotherEnded() {
        shared(1, "read", 13, 0, 40, 60);
        shared(2, "read", 20, 0, 5, 30);
        shared(1, "permit", 14, 0, 40, 60);
        shared(2, "permit", 21, 0, 5, 30);

        Report report = check();

        assertThat(report.violationCount()).as(report.text()).isZero();
    }

    @Test
    void aSkippedSharedModeIsReportedWithItsReason() {
        nemesis.add(Event.of("shared", 0, "on", false, "why", "the store does not declare SHARED_LOCKS"));

        Report report = check();

        assertThat(report.figures()).contains("shared mode: skipped (the store does not declare SHARED_LOCKS)");
        assertThat(report.tally().sharedRow("file"))
                .hasValue("| file | skipped: the store does not declare SHARED_LOCKS | | | | | | |");
    }
}
