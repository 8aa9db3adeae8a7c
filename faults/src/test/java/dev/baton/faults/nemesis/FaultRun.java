package dev.baton.faults.nemesis;

import static dev.baton.faults.history.Vocabulary.FAIRNESS_KEY;
import static dev.baton.faults.history.Vocabulary.LEADER_KEY;
import static dev.baton.faults.history.Vocabulary.PERMITS;
import static dev.baton.faults.history.Vocabulary.PERMIT_KEY;
import static dev.baton.faults.history.Vocabulary.PHASE;
import static dev.baton.faults.history.Vocabulary.RW_KEY;
import static dev.baton.faults.history.Vocabulary.SHARED_MODE;

import dev.baton.faults.check.CheckSettings;
import dev.baton.faults.check.Checker;
import dev.baton.faults.check.Report;
import dev.baton.faults.check.RunData;
import dev.baton.faults.db.Processes;
import dev.baton.faults.db.Schema;
import dev.baton.faults.history.Event;
import dev.baton.faults.history.HistoryWriter;
import dev.baton.faults.store.StoreKind;
import dev.baton.faults.store.StoreUnderTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One run on one store: start its private servers (the application's database; Redis, or a lock directory),
 * create the schema, start the workers, a fairness phase (every worker on one key, no faults), a fault phase
 * (the nemesis, with the store's deck of faults; the leader's actions and the shared mode's permits and read/write
 * locks beside the critical sections), stop everything, export the database's journal and check
 * the histories.
 */
public final class FaultRun {

    /** The keys of the fault phase. */
    public static final List<String> KEYS = List.of("k0", "k1", "k2");

    private final RunSettings settings;
    private final StoreKind store;

    /**
     * @param settings the run's settings
     * @param store the store
     */
    public FaultRun(RunSettings settings, StoreKind store) {
        this.settings = settings;
        this.store = store;
    }

    /**
     * Runs and checks.
     *
     * @return the checker's report
     * @throws IOException if the run directory cannot be written
     */
    public Report run() throws IOException {
        Path dir = settings.dir().resolve(store.label()).toAbsolutePath();
        Path serverDir = settings.dir().resolve("servers-" + store.label()).toAbsolutePath();
        clean(dir);
        clean(serverDir); // fresh servers every run
        Files.createDirectories(dir);
        say("starting " + store.title() + " in " + serverDir);
        List<String> keys = new ArrayList<>(KEYS);
        keys.add(FAIRNESS_KEY);
        if (settings.leadership()) {
            keys.add(LEADER_KEY); // the leader's actions write the rows of the election's lock key
        }
        String title;
        try (StoreUnderTest under = new StoreUnderTest(store, serverDir);
                HistoryWriter log = new HistoryWriter(dir.resolve(RunData.NEMESIS_FILE))) {
            title = store.title();
            Schema.create(under.database(), keys, store);
            boolean shared = sharedMode(under, log);
            HolderTracker tracker = new HolderTracker(dir);
            try (Workers workers = new Workers(under, settings, dir, log, shared)) {
                workers.startAll();
                say("waiting for " + settings.workers() + " workers");
                workers.awaitStarted(tracker, Duration.ofMinutes(3));

                say("fairness phase: " + settings.fairnessPhase().toSeconds() + " s, every worker on one key");
                workers.control("fair");
                log.write(PHASE, "name", "fairness", "edge", "begin");
                Processes.sleep(settings.fairnessPhase().toMillis());
                workers.control("idle");
                Processes.sleep(1_500); // the last fair sections end
                log.write(PHASE, "name", "fairness", "edge", "end");

                say("fault phase: " + settings.faultPhase().toSeconds() + " s, " + settings.workers() + " workers x "
                        + settings.threads() + " threads on " + KEYS
                        + (settings.leadership() ? " and a leader's actions on " + LEADER_KEY : "")
                        + (shared
                                ? ", " + PERMITS + " permits of " + PERMIT_KEY + " and readers and writers of " + RW_KEY
                                : "")
                        + ", ttl "
                        + settings.ttlMillis() + " ms");
                workers.restarting(true);
                workers.control("faults");
                log.write(PHASE, "name", "faults", "edge", "begin");
                new Nemesis(under, dir, workers, tracker, log, settings.seed(), settings.ttlMillis())
                        .run(settings.faultPhase());
                log.write(PHASE, "name", "faults", "edge", "end");
                workers.restarting(false);
                say("stopping the workers");
                workers.stopAll(Duration.ofSeconds(60));
            }
            exportJournal(under.database(), dir);
        }
        Report report = new Checker(CheckSettings.forTtl(settings.ttlMillis())).check(title, RunData.load(dir));
        say("checked: " + (report.failed() ? report.violationCount() + " violation(s)" : "no violation"));
        return report;
    }

    /**
     * Whether the workers run the shared mode: asked for ({@code faults.shared}) and the store declares
     * {@code SHARED_LOCKS}. Written to the nemesis's history either way, so that the report says why it did not run.
     */
    private boolean sharedMode(StoreUnderTest under, HistoryWriter log) {
        String off = !settings.shared()
                ? "faults.shared=false"
                : under.declaresSharedLocks() ? null : "the store does not declare SHARED_LOCKS";
        if (off == null) {
            log.write(SHARED_MODE, "on", true);
        } else {
            log.write(SHARED_MODE, "on", false, "why", off);
            say("shared mode skipped: " + off);
        }
        return off == null;
    }

    private static void exportJournal(dev.baton.faults.db.Database db, Path dir) {
        try (HistoryWriter journal = new HistoryWriter(dir.resolve(RunData.JOURNAL_FILE))) {
            for (Event row : Schema.journal(db)) {
                journal.write(row);
            }
        }
    }

    private static void clean(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private void say(String line) {
        System.out.println("[faults " + store.label() + "] " + line);
    }
}
