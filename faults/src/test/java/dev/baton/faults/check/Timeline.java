package dev.baton.faults.check;

import static dev.baton.faults.history.Vocabulary.COUNTER;
import static dev.baton.faults.history.Vocabulary.DIED;
import static dev.baton.faults.history.Vocabulary.ENTER;
import static dev.baton.faults.history.Vocabulary.EXIT;
import static dev.baton.faults.history.Vocabulary.FAULT;
import static dev.baton.faults.history.Vocabulary.FENCED;
import static dev.baton.faults.history.Vocabulary.GRANTED;
import static dev.baton.faults.history.Vocabulary.HEAL;
import static dev.baton.faults.history.Vocabulary.HICCUP;
import static dev.baton.faults.history.Vocabulary.PERMIT;
import static dev.baton.faults.history.Vocabulary.PHASE;
import static dev.baton.faults.history.Vocabulary.READ;
import static dev.baton.faults.history.Vocabulary.REVOKED;
import static dev.baton.faults.history.Vocabulary.SHARED_MODE;
import static dev.baton.faults.history.Vocabulary.STILL_ACTING;
import static dev.baton.faults.history.Vocabulary.WRITE;

import dev.baton.faults.history.Event;
import dev.baton.faults.history.FaultKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The run put together from its histories: the sections, when each process died, the faults, and for
 * each process the stretches of time that explain it losing a lock.
 */
final class Timeline {

    /** A fault as the nemesis logged it. */
    record Fault(String id, FaultKind kind, long pid, long begin, long end) {}

    /**
     * A term of the run's election, from its {@code granted} line to its {@code revoked} line, or to the kill or
     * death of its process when that line is missing.
     */
    static final class Term {
        final long pid;
        final long token;
        final long begin;
        long end = Long.MAX_VALUE;
        String reason;

        Term(long pid, long token, long begin) {
            this.pid = pid;
            this.token = token;
            this.begin = begin;
        }

        String describe(Clock clock) {
            return "pid " + pid + " term tok " + token + " granted " + clock.at(begin)
                    + (reason != null
                            ? " revoked " + clock.at(end) + " (" + reason + ")"
                            : end == Long.MAX_VALUE
                                    ? " never revoked"
                                    : " no revoked line, process gone " + clock.at(end));
        }
    }

    /** The critical sections of the exclusive keys (and the leader's actions), by the time they began. */
    final List<Section> sections = new ArrayList<>();
    /** The sections of the shared mode (permits, readers and writers), by the time they began. */
    final List<Section> sharedSections = new ArrayList<>();
    /** Why the shared mode did not run, as the run logged it; null when it ran or the run said nothing of it. */
    String sharedModeOff;
    /** The terms of the run's election, by the time they began. */
    final List<Term> terms = new ArrayList<>();

    final Map<Long, Long> deaths = new HashMap<>();
    /**
     * When a process's application stopped waiting for the leader action of a term it was told was revoked (its
     * observer returned with the action still running, and Baton released the lock), by {@code pid|token}.
     */
    private final Map<String, Long> stillActing = new HashMap<>();

    final List<Fault> faults = new ArrayList<>();
    final Map<String, long[]> phases = new LinkedHashMap<>();
    private final List<Interval> database = new ArrayList<>();
    /** Pauses the workers noticed themselves, long enough to explain a loss, that no SIGSTOP caused. */
    final List<Interval> ownPauses = new ArrayList<>();

    private final Map<Long, List<Interval>> pauses = new HashMap<>();
    final Clock clock;
    final long hiccupMillis;

    Timeline(RunData data, CheckSettings settings) {
        hiccupMillis = settings.hiccupMillis();
        long origin = Stream.concat(data.workers().stream(), data.nemesis().stream())
                .mapToLong(Event::nano)
                .min()
                .orElse(0);
        clock = new Clock(origin);
        readNemesis(data.nemesis());
        readWorkers(data.workers(), settings);
        List<Section> all = new ArrayList<>(sections);
        all.addAll(sharedSections);
        for (Section s : all) {
            if (s.exited != null) {
                s.end = s.exited;
            } else {
                // Nothing runs after SIGKILL: a killed process's section ends at its kill, not when it was seen gone
                // (a store that frees a dead holder's locks at once lets the next holder in between the two).
                s.end = Math.min(deaths.getOrDefault(s.pid, Long.MAX_VALUE), killedAt(s.pid, s.entered));
            }
        }
        sections.sort(Comparator.comparingLong((Section s) -> s.entered));
        sharedSections.sort(Comparator.comparingLong((Section s) -> s.entered));
        for (Term term : terms) {
            if (term.reason == null) {
                term.end = Math.min(deaths.getOrDefault(term.pid, Long.MAX_VALUE), killedAt(term.pid, term.begin));
            }
        }
        terms.sort(Comparator.comparingLong((Term term) -> term.begin));
    }

    private void readNemesis(List<Event> events) {
        Map<String, Event> open = new LinkedHashMap<>();
        for (Event e : events) {
            switch (e.type()) {
                case DIED -> deaths.put(e.getLong("pid"), e.nano());
                case FAULT -> open.put(e.get("id"), e);
                case HEAL -> {
                    Event begin = open.remove(e.get("id"));
                    if (begin != null) {
                        addFault(begin, e.nano());
                    }
                }
                case SHARED_MODE -> {
                    if (!Boolean.parseBoolean(e.get("on"))) {
                        sharedModeOff = e.find("why").orElse("off");
                    }
                }
                case PHASE -> {
                    long[] span =
                            phases.computeIfAbsent(e.get("name"), n -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
                    if ("begin".equals(e.get("edge"))) {
                        span[0] = e.nano();
                    } else {
                        span[1] = e.nano();
                    }
                }
                default -> {
                    // spawn, hung: read by the analyses that need them
                }
            }
        }
        open.values().forEach(begin -> addFault(begin, Long.MAX_VALUE)); // never healed (or a kill)
    }

    /** @return when the process got its first {@code kill9} at or after {@code since}; never if it got none */
    private long killedAt(long pid, long since) {
        return faults.stream()
                .filter(f -> f.kind() == FaultKind.KILL9 && f.pid() == pid && f.begin() >= since)
                .mapToLong(Fault::begin)
                .min()
                .orElse(Long.MAX_VALUE);
    }

    private void addFault(Event begin, long end) {
        FaultKind kind = FaultKind.of(begin.get("kind"));
        long pid = begin.getLong("pid");
        Fault fault = new Fault(begin.get("id"), kind, pid, begin.nano(), end);
        faults.add(fault);
        String what = kind.label() + (kind.ofDatabase() ? "" : " of pid " + pid) + " " + clock.at(begin.nano()) + ".."
                + clock.at(end);
        if (kind.ofDatabase()) {
            database.add(new Interval(begin.nano(), end, what, kind.label()));
        } else if (kind.pausesOneProcess()) {
            pauses.computeIfAbsent(pid, p -> new ArrayList<>())
                    .add(new Interval(begin.nano(), end, what, kind.label()));
        }
    }

    private void readWorkers(List<Event> events, CheckSettings settings) {
        Map<String, Section> byId = new HashMap<>();
        Map<String, Term> openTerms = new HashMap<>();
        for (Event e : events) {
            switch (e.type()) {
                case GRANTED -> {
                    Term term = new Term(e.getLong("pid"), e.getLong("tok"), e.nano());
                    terms.add(term);
                    openTerms.put(term.pid + "|" + term.token, term);
                }
                case STILL_ACTING -> stillActing.putIfAbsent(e.getLong("pid") + "|" + e.getLong("tok"), e.nano());
                case REVOKED -> {
                    Term term = openTerms.remove(e.get("pid") + "|" + e.get("tok"));
                    if (term != null) {
                        term.end = e.nano();
                        term.reason = e.find("reason").orElse("?");
                    }
                }
                case ENTER -> {
                    Optional<String> mode = e.find("mode");
                    Section s = new Section(
                            e.getLong("pid"),
                            e.get("thr"),
                            e.get("key"),
                            e.getLong("tok"),
                            e.get("api"),
                            e.getLong("req"),
                            e.nano(),
                            mode.orElse(null),
                            mode.map(m -> sharedLimit(m, e)).orElse(0));
                    (mode.isPresent() ? sharedSections : sections).add(s);
                    byId.put(sectionId(e), s);
                }
                case FENCED ->
                    section(byId, e).ifPresent(s -> {
                        s.fencedRows = e.find("rows").map(Integer::valueOf).orElse(null);
                        s.fencedAt = e.nano();
                        s.fencedError = e.find("err").orElse(null);
                    });
                case COUNTER ->
                    section(byId, e).ifPresent(s -> {
                        s.counterRead = e.find("read").map(Long::valueOf).orElse(null);
                        s.counterError = e.find("err").orElse(null);
                    });
                case EXIT ->
                    section(byId, e).ifPresent(s -> {
                        s.exited = e.nano();
                        s.heldAtExit = Boolean.valueOf(e.get("held"));
                    });
                case HICCUP -> {
                    long ms = e.getLong("ms");
                    if (ms >= settings.hiccupMillis()) {
                        long pid = e.getLong("pid");
                        Interval pause = new Interval(
                                e.nano() - ms * 1_000_000,
                                e.nano(),
                                "a " + ms + " ms pause pid " + pid + " noticed itself, ending " + clock.at(e.nano()),
                                Interval.OWN_PAUSE);
                        boolean stopped = faults.stream()
                                .anyMatch(f -> f.pid() == pid
                                        && f.kind() == FaultKind.STOP
                                        && pause.intersects(f.begin(), f.end()));
                        if (!stopped) {
                            ownPauses.add(pause);
                            pauses.computeIfAbsent(pid, p -> new ArrayList<>()).add(pause);
                        } else {
                            pauses.computeIfAbsent(pid, p -> new ArrayList<>())
                                    .add(new Interval(
                                            pause.begin(), pause.end(), pause.what(), FaultKind.STOP.label()));
                        }
                    }
                }
                default -> {
                    // start, fail, error, lost, term, stopped: read by the analyses that need them
                }
            }
        }
    }

    /**
     * @return how many shared holders a section's acquisition allowed: its {@code limit} (a permit, or a reader with
     *     permits), unlimited for a reader without, 0 for a writer (exclusive)
     */
    private static int sharedLimit(String mode, Event enter) {
        return switch (mode) {
            case WRITE -> 0;
            case READ -> enter.find("limit").map(Integer::parseInt).orElse(Integer.MAX_VALUE);
            case PERMIT -> Integer.parseInt(enter.get("limit"));
            default ->
                throw new IllegalStateException("unknown mode '" + mode + "' (expected " + PERMIT + ", " + READ + " or "
                        + WRITE + "): " + enter.toLine().strip());
        };
    }

    private static String sectionId(Event e) {
        return e.get("pid") + "|" + e.get("thr") + "|" + e.get("key") + "|" + e.get("tok");
    }

    private static Optional<Section> section(Map<String, Section> byId, Event e) {
        return Optional.ofNullable(byId.get(sectionId(e)));
    }

    /**
     * What could explain that {@code pid} lost a lock between two moments: the faults that paused it or cut it
     * off from the store (stops, partitions, slow links, its sessions ended), outages of the store's server,
     * and pauses it noticed itself.
     *
     * @return the explanation, the nemesis's faults first (a pause during a stop is the stop's)
     */
    Optional<Interval> explanation(long pid, long from, long to) {
        return Stream.concat(pauses.getOrDefault(pid, List.of()).stream(), database.stream())
                .filter(i -> i.intersects(from, to))
                .min(Comparator.comparing((Interval i) -> Interval.OWN_PAUSE.equals(i.cause())));
    }

    /**
     * Whether the application of {@code pid} let the revocation of its term {@code token} go with the term's action
     * still running, at or before {@code by}: that action then goes on without the lock, and Baton was not asked to
     * keep it (it releases a revoked term's lock once the revocation's observers have returned).
     *
     * @return the moment, as an explanation of cause {@value Interval#STILL_ACTING}, or empty
     */
    Optional<Interval> stillActing(long pid, long token, long by) {
        Long at = stillActing.get(pid + "|" + token);
        if (at == null || at > by) {
            return Optional.empty();
        }
        return Optional.of(new Interval(
                at,
                at,
                "pid " + pid + " stopped waiting for its action of revoked term tok " + token + " at " + clock.at(at),
                Interval.STILL_ACTING));
    }

    /**
     * The faults done to a process that do not excuse a loss (SIGTERM, SIGKILL), for the evidence.
     *
     * @return e.g. {@code  | pid 12 got term at +3.100s}, or empty
     */
    String otherFaults(long pid, long from, long to) {
        StringBuilder out = new StringBuilder();
        faults.stream()
                .filter(f -> f.pid() == pid
                        && !f.kind().pausesOneProcess()
                        && f.begin() <= to + 2_000_000_000L
                        && f.begin() >= from - 2_000_000_000L)
                .forEach(f -> out.append(" | pid ")
                        .append(pid)
                        .append(" got ")
                        .append(f.kind().label())
                        .append(" at ")
                        .append(clock.at(f.begin())));
        return out.toString();
    }

    /** @return whether {@code nano} lies in the named phase (true when the run had no such phase) */
    boolean inPhase(String name, long nano) {
        long[] span = phases.get(name);
        return span != null && nano >= span[0] && nano <= span[1];
    }

    /** @return the stretches when the database was down or restarting */
    List<Interval> databaseOutages() {
        return database;
    }
}
