package dev.baton.faults.check;

import static dev.baton.faults.history.Vocabulary.COUNTER_ROW;
import static dev.baton.faults.history.Vocabulary.DIED;
import static dev.baton.faults.history.Vocabulary.ERROR;
import static dev.baton.faults.history.Vocabulary.FAIL;
import static dev.baton.faults.history.Vocabulary.FAIRNESS_KEY;
import static dev.baton.faults.history.Vocabulary.FENCED_ROW;
import static dev.baton.faults.history.Vocabulary.HUNG;
import static dev.baton.faults.history.Vocabulary.LEADER_KEY;
import static dev.baton.faults.history.Vocabulary.LOCK_ROW;
import static dev.baton.faults.history.Vocabulary.LOST;
import static dev.baton.faults.history.Vocabulary.SPAWN;
import static dev.baton.faults.history.Vocabulary.STILL_ACTING;

import dev.baton.faults.history.Event;
import dev.baton.faults.history.FaultKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Reads a run's histories and the database's journals and says whether the locks kept their promises
 * (see {@code RELIABILITY.md} for what each check means).
 */
public final class Checker {

    private final CheckSettings settings;

    /**
     * @param settings the run's ttl and tolerances
     */
    public Checker(CheckSettings settings) {
        this.settings = settings;
    }

    /**
     * Checks a run.
     *
     * @param title the report's title, e.g. {@code PostgreSQL}
     * @param data the run's histories and journals
     * @return the report
     */
    public Report check(String title, RunData data) {
        Timeline timeline = new Timeline(data, settings);
        Report report = new Report(title);
        Map<String, List<Section>> byKey = timeline.sections.stream()
                .collect(Collectors.groupingBy(s -> s.key, TreeMap::new, Collectors.toList()));
        counts(timeline, data, report);
        byKey.values().forEach(sections -> overlaps(timeline, sections, report));
        report.figure("overlaps explained by a fault of the older holder, by cause (pairs): "
                + (report.tally().overlapsByCause().isEmpty()
                        ? "none"
                        : report.tally().overlapsByCause()));
        byKey.values().forEach(sections -> historyTokens(timeline, sections, report));
        shared(timeline, data, report);
        leadership(timeline, data, report);
        journals(timeline, data.journal(), report);
        recovery(timeline, report);
        processes(timeline, data, report);
        exceptions(data, report);
        waits(timeline, data, report);
        return report;
    }

    private static void counts(Timeline t, RunData data, Report report) {
        List<Section> all = t.sections;
        long sync = all.stream().filter(s -> "sync".equals(s.api)).count();
        long accepted = all.stream()
                .filter(s -> Integer.valueOf(1).equals(s.fencedRows))
                .count();
        long refused = all.stream()
                .filter(s -> Integer.valueOf(0).equals(s.fencedRows))
                .count();
        long fencedErrors = all.stream().filter(s -> s.fencedError != null).count();
        long counterWrites = all.stream().filter(s -> s.counterRead != null).count();
        long notHeld =
                all.stream().filter(s -> Boolean.FALSE.equals(s.heldAtExit)).count();
        long noExit = all.stream().filter(s -> s.exited == null).count();
        Set<String> sharedKeys = t.sharedSections.stream().map(s -> s.key).collect(Collectors.toSet());
        long lost = data.workers().stream()
                .filter(e -> LOST.equals(e.type()) && !sharedKeys.contains(e.get("key")))
                .count();
        report.figure("sections: " + all.size() + " (" + sync + " @Synchronized, " + (all.size() - sync)
                + " callWithLock) on " + all.stream().map(s -> s.key).distinct().count() + " keys by "
                + all.stream().map(s -> s.pid).distinct().count() + " processes; " + noExit
                + " without an exit line (process killed or gone); " + notHeld + " ended with isHeld()=false; "
                + lost + " losses signalled");
        report.figure("protected writes: " + accepted + " accepted, " + refused + " refused by the fence or token"
                + " column, " + fencedErrors + " failed; unfenced counter writes: " + counterWrites);
        Tally tally = report.tally();
        tally.sections = all.size();
        tally.accepted = (int) accepted;
        tally.refused = (int) refused;
        Map<FaultKind, Long> faults = t.faults.stream()
                .collect(Collectors.groupingBy(
                        f -> f.kind(), () -> new java.util.EnumMap<>(FaultKind.class), Collectors.counting()));
        faults.forEach((kind, n) -> tally.fault(kind.label()).injected = n);
        report.figure("pauses of at least " + t.hiccupMillis
                + " ms that workers noticed themselves, not caused by a SIGSTOP: "
                + t.ownPauses.size()
                + (t.ownPauses.isEmpty()
                        ? ""
                        : " (longest "
                                + t.ownPauses.stream()
                                                .mapToLong(i -> i.end() - i.begin())
                                                .max()
                                                .orElse(0)
                                        / 1_000_000 + " ms)"));
        report.figure("faults injected: "
                + (faults.isEmpty()
                        ? "none"
                        : faults.entrySet().stream()
                                .map(e -> e.getKey().label() + " " + e.getValue())
                                .collect(Collectors.joining(", "))));
    }

    private void overlaps(Timeline t, List<Section> sections, Report report) {
        List<Section> active = new ArrayList<>();
        int explained = 0;
        int toldHeld = 0;
        for (Section s : sections) {
            active.removeIf(a -> a.end <= s.entered);
            for (Section a : active) {
                if (a.holder().equals(s.holder())) {
                    continue;
                }
                Section older = a.token <= s.token ? a : s;
                Section newer = older == a ? s : a;
                long from = older.requested;
                long to = Math.max(older.entered, newer.entered);
                // tokens are per key: a term's still-acting line speaks only of the election's key
                Optional<Interval> why = t.explanation(older.pid, from, to)
                        .or(() -> LEADER_KEY.equals(older.key)
                                ? t.stillActing(older.pid, older.token, newer.entered)
                                : Optional.empty());
                String evidence = s.key + ": " + older.describe(t.clock) + " | overlaps " + newer.describe(t.clock)
                        + " | for " + Clock.millis(Math.min(a.end, s.end) - s.entered);
                if (older.token == newer.token) {
                    report.violation(
                            Report.TOKENS, s.key + ": token " + older.token + " held by two holders: " + evidence);
                    report.violation(Report.UNEXPLAINED_OVERLAP, evidence + " | the same token");
                } else if (why.isPresent()) {
                    explained++;
                    if (Boolean.TRUE.equals(older.heldAtExit)) {
                        toldHeld++;
                    }
                    String cause = why.get().cause();
                    report.tally().overlap(cause, (Math.min(a.end, s.end) - s.entered) / 1_000_000);
                    for (Section both : List.of(older, newer)) {
                        both.explainedOverlap = true;
                        if (both.overlapCause == null) {
                            both.overlapCause = cause;
                        }
                    }
                } else {
                    report.tally().unexplainedOverlaps++;
                    report.violation(
                            Report.UNEXPLAINED_OVERLAP,
                            evidence
                                    + (Boolean.TRUE.equals(older.heldAtExit)
                                            ? " | the older holder was told isHeld()=true at its exit"
                                            : "")
                                    + t.otherFaults(older.pid, from, to));
                }
            }
            active.add(s);
        }
        if (explained > 0) {
            report.figure(
                    "overlaps explained by a fault of the older holder, key " + sections.get(0).key + ": " + explained
                            + " pairs, "
                            + sections.stream().filter(s -> s.explainedOverlap).count() + " sections; older holders"
                            + " told isHeld()=true at their exit: " + toldHeld);
        }
    }

    /**
     * The shared mode: on each key, whenever a section enters, every holder of the key at that moment is judged as
     * its store judged its acquisition, against the holders with smaller tokens (acquired before it, and not released
     * before it was, since they are still in their sections): a writer needs none of them live, a shared holder no
     * live writer and fewer live shared holders than its own limit (each acquisition is judged by its own number of
     * permits). An older holder counts as not live — its lease may have run out — when a fault of its own process or
     * of the store's server explains it losing its lock between its request and this moment, as for overlapping
     * sections; anything else fails the run. Tokens: unique per key, and the rule of the exclusive keys (no section
     * enters with a token at or below one of a section that already ended, unless held up by a fault since it asked).
     */
    private void shared(Timeline t, RunData data, Report report) {
        Tally tally = report.tally();
        if (t.sharedModeOff != null) {
            tally.sharedModeOff = t.sharedModeOff;
            report.figure("shared mode: skipped (" + t.sharedModeOff + ")");
            return;
        }
        if (t.sharedSections.isEmpty()) {
            return;
        }
        int tokenViolations = report.violations(Report.TOKENS).size();
        Map<String, List<Section>> byKey =
                t.sharedSections.stream().collect(Collectors.groupingBy(s -> s.key, TreeMap::new, Collectors.toList()));
        byKey.values().forEach(sections -> {
            sharedHolders(t, sections, report);
            uniqueTokens(t, sections, report);
            historyTokens(t, sections, report);
        });
        tally.sharedTokenViolations = report.violations(Report.TOKENS).size() - tokenViolations;
        t.sharedSections.forEach(s -> {
            tally.sharedSections.merge(s.mode, 1, Integer::sum);
            if (!s.exclusive() && s.sharedLimit != Integer.MAX_VALUE) {
                tally.permits = Math.max(tally.permits, s.sharedLimit);
            }
        });
        for (Timeline.Fault f : t.faults) {
            boolean caught = t.sharedSections.stream()
                    .anyMatch(s -> s.pid == f.pid() && s.entered <= f.begin() && s.end > f.begin());
            if (caught) {
                tally.sharedHolderFaults.merge(f.kind().label(), 1, Integer::sum);
            }
        }
        report.figure("shared mode: " + t.sharedSections.size() + " sections " + tally.sharedSections + " on "
                + byKey.keySet() + " by "
                + t.sharedSections.stream().map(s -> s.pid).distinct().count() + " processes; most at once "
                + tally.mostAtOnce + " (permits " + tally.permits + "); faults that caught a holder: "
                + (tally.sharedHolderFaults.isEmpty() ? "none" : tally.sharedHolderFaults)
                + "; holders beyond a limit that a fault of the older holders explains, by cause (the earliest, after"
                + " the cause began): " + tally.sharedExplainedText() + "; "
                + t.sharedSections.stream()
                        .filter(s -> Boolean.FALSE.equals(s.heldAtExit))
                        .count()
                + " ended with isHeld()=false; "
                + data.workers().stream()
                        .filter(e -> LOST.equals(e.type()) && byKey.containsKey(e.get("key")))
                        .count()
                + " losses signalled");
        Map<String, List<Double>> waits = new TreeMap<>();
        t.sharedSections.stream()
                .filter(s -> t.inPhase("faults", s.entered))
                .forEach(s ->
                        waits.computeIfAbsent(s.mode, m -> new ArrayList<>()).add(s.waitMillis()));
        Map<String, Long> timeouts = data.workers().stream()
                .filter(e -> FAIL.equals(e.type())
                        && "LockTimeoutException".equals(e.get("ex"))
                        && byKey.containsKey(e.find("key").orElse("")))
                .collect(Collectors.groupingBy(e -> e.get("thr"), TreeMap::new, Collectors.counting()));
        report.figure("shared mode, waits under faults: "
                + waits.entrySet().stream()
                        .map(e -> e.getKey() + " " + Percentiles.summary(e.getValue()))
                        .collect(Collectors.joining("; "))
                + "; acquire timeouts by thread " + timeouts);
    }

    /**
     * Judges the holders of one shared key at every entry (see {@link #shared}); each holder is reported at most once,
     * and counted at most once as explained.
     */
    private static void sharedHolders(Timeline t, List<Section> sections, Report report) {
        Tally tally = report.tally();
        List<Section> active = new ArrayList<>();
        Set<Section> reported = new HashSet<>();
        Set<Section> explained = new HashSet<>();
        for (Section s : sections) {
            active.removeIf(a -> a.end <= s.entered);
            active.add(s);
            active.stream()
                    .collect(Collectors.groupingBy(a -> a.mode, Collectors.counting()))
                    .forEach((mode, n) -> tally.mostAtOnce.merge(mode, n.intValue(), Math::max));
            for (Section holder : active) {
                if (reported.contains(holder)) {
                    continue;
                }
                List<Section> older = active.stream()
                        .filter(o -> o.token < holder.token && !o.holder().equals(holder.holder()))
                        .toList();
                if (conflicts(holder, older).isEmpty()) {
                    continue;
                }
                List<Section> live = older.stream()
                        .filter(o ->
                                t.explanation(o.pid, o.requested, s.entered).isEmpty())
                        .toList();
                List<Section> against = conflicts(holder, live);
                if (against.isEmpty()) {
                    if (explained.add(holder)) {
                        Interval why = older.stream()
                                .filter(o -> !live.contains(o))
                                .map(o -> t.explanation(o.pid, o.requested, s.entered)
                                        .orElseThrow())
                                .findFirst()
                                .orElseThrow();
                        // how far into the fault or pause the store let a holder beyond the limit in: a store that
                        // keeps the leases lets it in only once the held-up holder's lease ran out
                        tally.sharedExplained(why.cause(), Math.max(0, s.entered - why.begin()) / 1_000_000);
                    }
                    continue;
                }
                reported.add(holder);
                boolean writerInvolved = holder.exclusive() || against.stream().anyMatch(Section::exclusive);
                String evidence = holder.key + ": " + holder.describe(t.clock) + " | beside " + against.size()
                        + " live older holder(s)"
                        + (holder.exclusive()
                                ? ""
                                : holder.sharedLimit == Integer.MAX_VALUE
                                        ? " (a reader: no writer allowed)"
                                        : " (its limit: " + holder.sharedLimit + " holders)")
                        + against.stream()
                                .limit(4)
                                .map(o -> " | " + o.describe(t.clock) + t.otherFaults(o.pid, o.requested, s.entered))
                                .collect(Collectors.joining());
                if (writerInvolved) {
                    tally.writerNotAlone++;
                    report.violation(Report.WRITER_NOT_ALONE, evidence);
                } else {
                    tally.permitsExceeded++;
                    report.violation(Report.PERMITS_EXCEEDED, evidence);
                }
            }
        }
    }

    /**
     * @return the older holders that make {@code holder}'s acquisition one its store must have refused, were they all
     *     live: for a writer every one; for a shared holder the writers, and the shared holders when there are as
     *     many as its limit or more
     */
    private static List<Section> conflicts(Section holder, List<Section> older) {
        if (holder.exclusive()) {
            return older;
        }
        List<Section> writers = older.stream().filter(Section::exclusive).toList();
        List<Section> shared = older.stream().filter(o -> !o.exclusive()).toList();
        if (shared.size() < holder.sharedLimit) {
            return writers;
        }
        List<Section> all = new ArrayList<>(writers);
        all.addAll(shared);
        return all;
    }

    /** Every acquisition of a key gets its own token: two holders with one token are a violation. */
    private static void uniqueTokens(Timeline t, List<Section> sections, Report report) {
        Map<Long, Section> first = new HashMap<>();
        for (Section s : sections) {
            Section other = first.putIfAbsent(s.token, s);
            if (other != null && !other.holder().equals(s.holder())) {
                report.violation(
                        Report.TOKENS,
                        s.key + ": token " + s.token + " held by two holders: " + other.describe(t.clock) + " | "
                                + s.describe(t.clock));
            }
        }
    }

    /** The faults of one process after which another may have to take over its leadership. */
    private static final Set<FaultKind> LEADER_FAULTS = java.util.EnumSet.of(
            FaultKind.KILL9,
            FaultKind.TERM,
            FaultKind.STOP,
            FaultKind.PARTITION,
            FaultKind.SLOW,
            FaultKind.SESSION_KILL);

    /**
     * The terms of the run's election: two terms of different processes must not overlap unless a fault of the
     * older leader (the smaller token) explains it, as for sections, with the window the last two ttls before the
     * newer grant (a term may be long; what matters is why its lease could run out before the newer grant); and
     * the takeovers: from a fault of the leader to the next grant to another process, when the leader's term
     * ended by that fault (within two ttls of its end, and before any later fault of the leader or of the store)
     * and the next term is not the same process's again.
     */
    private void leadership(Timeline t, RunData data, Report report) {
        if (t.terms.isEmpty()) {
            return;
        }
        Tally tally = report.tally();
        tally.terms = t.terms.size();
        long window = 2 * settings.ttlMillis() * 1_000_000;
        for (int i = 0; i < t.terms.size(); i++) {
            Timeline.Term a = t.terms.get(i);
            for (int j = i + 1; j < t.terms.size(); j++) {
                Timeline.Term b = t.terms.get(j);
                if (b.begin >= a.end) {
                    continue; // b began after a ended; later ones may still overlap a longer a
                }
                if (a.pid == b.pid) {
                    continue;
                }
                Timeline.Term older = a.token <= b.token ? a : b;
                Timeline.Term newer = older == a ? b : a;
                String evidence = "leader terms: " + older.describe(t.clock) + " | overlaps " + newer.describe(t.clock)
                        + " | for " + Clock.millis(Math.min(a.end, b.end) - b.begin);
                long to = Math.max(older.begin, newer.begin);
                long from = Math.max(Math.min(older.begin, newer.begin), newer.begin - window);
                Optional<Interval> why = t.explanation(older.pid, from, to);
                if (older.token == newer.token) {
                    report.violation(Report.TOKENS, "token " + older.token + " of two terms: " + evidence);
                    tally.unexplainedTermOverlaps++;
                    report.violation(Report.UNEXPLAINED_OVERLAP, evidence + " | the same token");
                } else if (why.isPresent()) {
                    tally.explainedTermOverlaps.merge(why.get().cause(), 1, Integer::sum);
                } else {
                    tally.unexplainedTermOverlaps++;
                    report.violation(Report.UNEXPLAINED_OVERLAP, evidence + t.otherFaults(older.pid, from, to));
                }
            }
        }
        Map<String, List<Double>> byKind = new TreeMap<>();
        int kept = 0;
        int notTaken = 0;
        int wonAgain = 0;
        for (Timeline.Fault f : t.faults) {
            if (!LEADER_FAULTS.contains(f.kind())) {
                continue;
            }
            Optional<Timeline.Term> led = t.terms.stream()
                    .filter(term -> term.pid == f.pid() && term.begin <= f.begin() && term.end >= f.begin())
                    .findFirst();
            if (led.isEmpty()) {
                continue;
            }
            tally.leaderFaults.merge(f.kind().label(), 1, Integer::sum);
            long endedBy = f.end() == Long.MAX_VALUE ? Long.MAX_VALUE : f.end() + window;
            boolean laterFault = t.faults.stream()
                    .anyMatch(other -> other != f
                            && (other.kind().ofDatabase()
                                    || other.pid() == f.pid() && LEADER_FAULTS.contains(other.kind()))
                            && other.begin() > f.begin()
                            && other.begin() <= led.get().end);
            if (led.get().end > endedBy || laterFault) {
                kept++; // the term outlived the fault (another may have ended it): nothing to take over from this one
                continue;
            }
            Optional<Timeline.Term> next = t.terms.stream()
                    .filter(term -> term != led.get() && term.begin > f.begin())
                    .findFirst();
            if (next.isEmpty()) {
                notTaken++;
                continue;
            }
            if (next.get().pid == f.pid()) {
                wonAgain++; // nobody got in: the lock stayed with the leader's session (advisory mode), say
                continue;
            }
            double millis = (next.get().begin - f.begin()) / 1e6;
            byKind.computeIfAbsent(f.kind().label(), k -> new ArrayList<>()).add(millis);
            tally.takeovers.add(millis);
        }
        report.figure("leadership: " + t.terms.size() + " terms by "
                + t.terms.stream().map(term -> term.pid).distinct().count() + " processes; faults of the leader: "
                + (tally.leaderFaults.isEmpty() ? "none" : tally.leaderFaults) + "; terms that outlived the fault: "
                + kept + "; leaders that won the next term again: " + wonAgain
                + (notTaken > 0 ? "; leaderships nobody took over: " + notTaken : "")
                + "; overlapping terms explained by a fault of the older leader: "
                + (tally.explainedTermOverlaps.isEmpty() ? "none" : tally.explainedTermOverlaps)
                + "; actions still running when their revocation stopped waiting for them: "
                + data.workers().stream()
                        .filter(e -> STILL_ACTING.equals(e.type()))
                        .count());
        report.figure("takeover (fault of the leader -> next grant to another process): "
                + Percentiles.summary(tally.takeovers)
                + byKind.entrySet().stream()
                        .map(e -> "; " + e.getKey() + " " + p50AndMax(e.getValue()))
                        .collect(Collectors.joining()));
    }

    private void historyTokens(Timeline t, List<Section> sections, Report report) {
        // a section must not start with a token lower than one of a section that already ended, unless its
        // holder was held up (paused, cut off) between asking for the lock and entering. Two shared holders may have
        // held the key together, so one granted first may enter after the other ended: between them nothing is
        // ordered, and a shared section is compared only with the ended ones that held their key alone.
        List<Section> byEnd = new ArrayList<>(sections);
        byEnd.sort(Comparator.comparingLong(s -> s.end));
        int next = 0;
        Section highest = null;
        Section highestAlone = null;
        for (Section s : sections) {
            while (next < byEnd.size() && byEnd.get(next).end <= s.entered) {
                Section ended = byEnd.get(next++);
                if (highest == null || ended.token > highest.token) {
                    highest = ended;
                }
                if (!ended.shares() && (highestAlone == null || ended.token > highestAlone.token)) {
                    highestAlone = ended;
                }
            }
            Section before = s.shares() ? highestAlone : highest;
            if (before != null
                    && before.token >= s.token
                    && !before.holder().equals(s.holder())
                    && t.explanation(s.pid, s.requested, s.entered).isEmpty()) {
                report.violation(
                        Report.TOKENS,
                        s.key + ": " + s.describe(t.clock) + " entered after " + before.describe(t.clock));
            }
        }
    }

    private static void journals(Timeline t, List<Event> journal, Report report) {
        if (journal.isEmpty()) {
            report.note(
                    "no database journal: the fenced-write and counter checks from the database's view were skipped");
            return;
        }
        Map<String, Long> lastLockToken = new HashMap<>();
        Map<String, Set<Long>> storeTokens = new HashMap<>();
        Map<String, Long> highestFenced = new HashMap<>();
        // a leader's actions share their term's token: one id, many sections
        Map<String, List<Section>> sectionsById = new HashMap<>();
        t.sections.forEach(s -> sectionsById
                .computeIfAbsent(s.pid + "|" + s.key + "|" + s.token, id -> new ArrayList<>())
                .add(s));
        int lockRows = 0;
        int fencedRows = 0;
        int counterRows = 0;
        int expiredButCurrent = 0;
        int explainedLost = 0;
        boolean tokenColumn = false;
        List<Event> rows = new ArrayList<>(journal);
        rows.sort(Comparator.comparingLong(Event::nano)); // the journal id: the order the database wrote them
        for (Event row : rows) {
            String key = row.get("key");
            switch (row.type()) {
                case LOCK_ROW -> {
                    lockRows++;
                    long token = row.getLong("tok");
                    Long last = lastLockToken.put(key, token);
                    storeTokens.computeIfAbsent(key, k -> new HashSet<>()).add(token);
                    if (last != null && token <= last) {
                        report.violation(
                                Report.TOKENS,
                                key + ": the lock table went from token " + last + " to " + token + " (journal row "
                                        + row.nano() + ", " + row.get("at") + ")");
                    }
                }
                case FENCED_ROW -> {
                    fencedRows++;
                    long written = row.getLong("new");
                    long current = row.find("cur").map(Long::parseLong).orElse(-1L);
                    Long highest = highestFenced.get(key);
                    if (highest != null && written < highest) {
                        report.violation(
                                Report.FENCE,
                                key + ": token " + written + " (pid " + row.get("pid") + ") written after token "
                                        + highest + " (journal row " + row.nano() + ", " + row.get("at") + ")");
                    }
                    if (row.find("cur").isEmpty()) {
                        tokenColumn = true; // a token-column write: no lock row to compare with
                    } else if (current != written) {
                        report.tally().staleAccepted++;
                        report.violation(
                                Report.FENCE,
                                key + ": token " + written + " (pid " + row.get("pid")
                                        + ") written while the lock row held token " + current + " (journal row "
                                        + row.nano()
                                        + ", " + row.get("at") + ")");
                    } else if (!Boolean.parseBoolean(row.get("live"))) {
                        expiredButCurrent++;
                    }
                    highestFenced.merge(key, written, Math::max);
                }
                case COUNTER_ROW -> {
                    counterRows++;
                    long old = row.getLong("old");
                    long written = row.getLong("new");
                    if (written != old + 1) {
                        Section writer = writer(
                                sectionsById.getOrDefault(row.get("pid") + "|" + key + "|" + row.get("tok"), List.of()),
                                written);
                        if (writer != null && writer.explainedOverlap) {
                            explainedLost++;
                            report.tally().fault(writer.overlapCause).lostUpdates++;
                        } else {
                            report.tally().unexplainedLostUpdates++;
                            report.violation(
                                    Report.LOST_UPDATES,
                                    key + ": pid " + row.get("pid") + " tok " + row.get("tok")
                                            + " wrote " + written + " over " + old + " (" + (old + 1 - written)
                                            + " increment(s) lost; journal row " + row.nano() + ")"
                                            + (writer == null
                                                    ? "; its section is not in the histories"
                                                    : "; its section " + writer.describe(t.clock)
                                                            + " took part in no overlap that a fault explains"));
                        }
                    }
                }
                default -> report.note("unknown journal row " + row);
            }
        }
        List<Section> all = new ArrayList<>(t.sections);
        all.addAll(t.sharedSections); // a shared lease's token is the key's row's too (table mode)
        for (Section s : all) {
            Set<Long> tokens = storeTokens.get(s.key);
            if (tokens != null && !tokens.contains(s.token)) {
                report.violation(
                        Report.TOKENS,
                        s.key + ": " + s.describe(t.clock)
                                + " entered with a token the lock table never held for that key");
            }
        }
        report.figure("database journals: " + lockRows + " acquisitions, " + fencedRows + " accepted "
                + (tokenColumn
                        ? "token-column writes"
                        : "fenced writes (" + expiredButCurrent
                                + " at or just past the lease's end with no newer holder)")
                + ", " + counterRows + " counter writes, " + explainedLost + " lost updates explained by a fault");
        if (tokenColumn) {
            report.tally().tokenColumn = true;
            report.tally().staleAccepted = acceptedAfterANewerHolder(t);
            report.figure("token-column writes accepted after a section with a newer token had entered (the column"
                    + " orders writes, it cannot refuse one that comes first): at most "
                    + report.tally().staleAccepted);
        }
    }

    /**
     * The section that wrote {@code written} to the counter, among those of one process, key and token (one, or a
     * leader's actions of one term): the one whose history says it wrote that value; else, its line lost to a
     * kill, one that took part in an explained overlap; else the last.
     */
    private static Section writer(List<Section> candidates, long written) {
        return candidates.stream()
                .filter(s -> s.counterRead != null && s.counterRead == written - 1)
                .findFirst()
                .or(() -> candidates.stream()
                        .filter(s -> s.counterRead == null && s.explainedOverlap)
                        .findFirst())
                .orElse(candidates.isEmpty() ? null : candidates.get(candidates.size() - 1));
    }

    private void recovery(Timeline t, Report report) {
        long limit = (settings.ttlMillis() + settings.slackMillis()) * 1_000_000;
        for (FaultKind kind : List.of(FaultKind.KILL9, FaultKind.TERM)) {
            List<Double> delays = new ArrayList<>();
            int idle = 0;
            int none = 0;
            for (Timeline.Fault f : t.faults) {
                if (f.kind() != kind) {
                    continue;
                }
                // a SIGKILL lands a moment after it is logged: a section that still wrote its exit line ended
                // normally (and released); one that did not was killed holding its lock
                List<Section> held = t.sections.stream()
                        .filter(s -> s.pid == f.pid()
                                && s.entered <= f.begin()
                                && (kind == FaultKind.KILL9 ? s.exited == null : s.end >= f.begin()))
                        .toList();
                if (held.isEmpty()) {
                    idle++;
                }
                for (Section h : held) {
                    Optional<Section> nextHolder = t.sections.stream()
                            .filter(s -> s.key.equals(h.key) && s.pid != f.pid() && s.entered > f.begin())
                            .findFirst();
                    if (nextHolder.isEmpty()) {
                        none++;
                        continue;
                    }
                    long delay = nextHolder.get().entered - f.begin();
                    delays.add(delay / 1e6);
                    if (kind == FaultKind.KILL9 && delay > limit) {
                        report.note("after the kill -9 of pid " + f.pid() + " " + t.clock.at(f.begin()) + ", " + h.key
                                + " was next acquired only after " + Clock.millis(delay) + " (ttl + slack: "
                                + Clock.millis(limit) + ")");
                    }
                }
            }
            if (!delays.isEmpty() || idle > 0) {
                long over = delays.stream().filter(d -> d * 1e6 > limit).count();
                report.tally().fault(kind.label()).recovery = p50AndMax(delays);
                report.figure(kind.label() + " of a holder -> next acquisition of its key: "
                        + Percentiles.summary(delays)
                        + (kind == FaultKind.KILL9 ? ", " + over + " over ttl + " + settings.slackMillis() + " ms" : "")
                        + "; victims holding nothing: " + idle
                        + (none > 0 ? "; keys never taken again: " + none : ""));
            }
        }
        Map<String, List<Double>> back = new TreeMap<>();
        for (Interval outage : t.databaseOutages()) {
            if (outage.end() == Long.MAX_VALUE) {
                continue;
            }
            List<Double> ofCause = back.computeIfAbsent(outage.cause(), c -> new ArrayList<>());
            t.sections.stream()
                    .filter(s -> s.entered > outage.end())
                    .findFirst()
                    .ifPresent(s -> ofCause.add((s.entered - outage.end()) / 1e6));
        }
        back.forEach((cause, delays) -> {
            report.tally().fault(cause).recovery = p50AndMax(delays);
            report.figure(
                    "store's server back after " + cause + " -> first acquisition: " + Percentiles.summary(delays));
        });
    }

    private static String p50AndMax(List<Double> millis) {
        if (millis.isEmpty()) {
            return "";
        }
        double[] sorted =
                millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format(Locale.ROOT, "%,.0f / %,.0f ms", Percentiles.of(sorted, 50), sorted[sorted.length - 1]);
    }

    /**
     * Accepted protected writes whose outcome a worker wrote down after a section of the key with a newer
     * token had entered: an upper bound of the writes the token column let through from a superseded holder
     * (the line comes after the commit, which may have come before the newer holder entered).
     */
    private static int acceptedAfterANewerHolder(Timeline t) {
        int count = 0;
        for (Section s : t.sections) {
            if (!Integer.valueOf(1).equals(s.fencedRows)) {
                continue;
            }
            boolean superseded = t.sections.stream()
                    .anyMatch(o -> o.key.equals(s.key)
                            && o.token > s.token
                            && !o.holder().equals(s.holder())
                            && o.entered < s.fencedAt
                            && o.entered > s.entered);
            if (superseded) {
                count++;
            }
        }
        return count;
    }

    private static void processes(Timeline t, RunData data, Report report) {
        long spawned =
                data.nemesis().stream().filter(e -> SPAWN.equals(e.type())).count();
        List<Event> crashed = data.nemesis().stream()
                .filter(e -> DIED.equals(e.type()) && !Boolean.parseBoolean(e.get("expected")))
                .toList();
        List<Event> hung =
                data.nemesis().stream().filter(e -> HUNG.equals(e.type())).toList();
        report.figure("worker processes: " + spawned + " started, " + crashed.size() + " crashed (exited unasked), "
                + hung.size() + " hung (silent while nothing was done to them)");
        crashed.forEach(e -> report.note("worker pid " + e.get("pid") + " (slot " + e.get("slot")
                + ") exited by itself " + t.clock.at(e.nano()) + " with code " + e.get("code")));
        hung.forEach(e -> report.note("worker pid " + e.get("pid") + " (slot " + e.get("slot") + ") wrote nothing for "
                + e.get("silentMs") + " ms, " + t.clock.at(e.nano())));
    }

    private static void exceptions(RunData data, Report report) {
        Map<String, Long> documented = new TreeMap<>();
        Map<String, Long> other = new TreeMap<>();
        Map<String, String> example = new LinkedHashMap<>();
        for (Event e : data.workers()) {
            if (FAIL.equals(e.type())) {
                documented.merge(e.get("ex"), 1L, Long::sum);
                if (!"LockTimeoutException".equals(e.get("ex")) && !"LockStoreException".equals(e.get("ex"))) {
                    example.putIfAbsent(e.get("ex"), e.find("msg").orElse(""));
                }
            } else if (ERROR.equals(e.type())) {
                other.merge(e.get("ex"), 1L, Long::sum);
                example.putIfAbsent(e.get("ex"), e.find("msg").orElse(""));
            }
        }
        report.figure("acquisitions that failed with a documented LockException: "
                + (documented.isEmpty() ? "none" : documented.toString()));
        report.figure(
                "exceptions from Baton that are not a LockException: " + (other.isEmpty() ? "none" : other.toString()));
        example.forEach((ex, msg) -> report.note(ex + ": " + msg));
    }

    private static void waits(Timeline t, RunData data, Report report) {
        List<Double> fair = new ArrayList<>();
        List<Double> faults = new ArrayList<>();
        for (Section s : t.sections) {
            if (FAIRNESS_KEY.equals(s.key) && t.inPhase("fairness", s.entered)) {
                fair.add(s.waitMillis());
            } else if (t.inPhase("faults", s.entered)) {
                faults.add(s.waitMillis());
            }
        }
        long timeouts = data.workers().stream()
                .filter(e -> FAIL.equals(e.type())
                        && "LockTimeoutException".equals(e.get("ex"))
                        && FAIRNESS_KEY.equals(e.find("key").orElse(""))
                        && t.inPhase("fairness", e.nano()))
                .count();
        if (t.phases.containsKey("fairness")) {
            long processes = t.sections.stream()
                    .filter(s -> FAIRNESS_KEY.equals(s.key))
                    .map(s -> s.pid)
                    .distinct()
                    .count();
            report.figure("fairness, " + processes + " processes on one key, no faults: wait "
                    + Percentiles.summary(fair) + ", acquire timeouts " + timeouts);
            fairnessBound(t, fair, report);
        }
        if (t.phases.containsKey("faults")) {
            report.figure("waits under faults: " + Percentiles.summary(faults));
        }
    }

    /**
     * The fairness target: p99 of the waits within 4 x (a section + a hand-off), the mean of each taken
     * over the fairness phase: with 4 processes taking turns, a waiter has about 3 sections ahead of it.
     */
    private static void fairnessBound(Timeline t, List<Double> fair, Report report) {
        List<Section> sections = t.sections.stream()
                .filter(s -> FAIRNESS_KEY.equals(s.key) && t.inPhase("fairness", s.entered) && s.exited != null)
                .sorted(Comparator.comparingLong(s -> s.entered))
                .toList();
        if (sections.size() < 2 || fair.isEmpty()) {
            return;
        }
        double held = sections.stream()
                .mapToDouble(s -> (s.exited - s.entered) / 1e6)
                .average()
                .orElse(0);
        List<Double> handOffs = new ArrayList<>();
        for (int i = 1; i < sections.size(); i++) {
            long gap = sections.get(i).entered - sections.get(i - 1).exited;
            if (gap >= 0) {
                handOffs.add(gap / 1e6);
            }
        }
        double handOff =
                handOffs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double handOffP50 = Percentiles.of(
                handOffs.stream().mapToDouble(Double::doubleValue).sorted().toArray(), 50);
        double[] sorted =
                fair.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double p99 = Percentiles.of(sorted, 99);
        double bound = 4 * (held + handOff);
        Map<Long, Long> perProcess = new TreeMap<>();
        sections.forEach(s -> perProcess.merge(s.pid, 1L, Long::sum));
        report.figure(String.format(
                Locale.ROOT,
                "fairness target: section %.0f ms + hand-off %.1f ms (means; hand-off p50 %.1f ms): p99 wait %.0f ms is %s"
                        + " 4 x (section + hand-off) = %.0f ms; sections per process %s",
                held,
                handOff,
                handOffP50,
                p99,
                p99 <= bound ? "within" : "ABOVE",
                bound,
                perProcess.values()));
    }
}
