package dev.baton.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.faults.check.Report;
import dev.baton.faults.check.Tally;
import dev.baton.faults.nemesis.FaultRun;
import dev.baton.faults.nemesis.RunSettings;
import dev.baton.faults.store.StoreKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fault-injection suite (issues 14 and 33; see RELIABILITY.md): on each store (the JPA store's table and
 * advisory modes on PostgreSQL and MariaDB, Redis, the file store), worker processes take locks while a
 * nemesis injects the faults that matter for that store (kills, pauses, terminations, partitions, ended
 * sessions, restarts and pauses of the store's server, cut subscriptions); the checker then reads every
 * history and prints a table store x fault. Fails on any overlap no fault explains, fenced write accepted
 * out of token order, token regression, or lost update no fault explains, and in the shared mode on more holders
 * than permits or a writer beside another holder that no fault explains.
 *
 * <pre>
 * ./mvnw -pl faults -am verify -Pfaults                                          # CI profile: every store (file-tmpfs when named)
 * ./mvnw -pl faults -am verify -Pfaults -Dfaults.stores=redis -Dfaults.duration=30m   # long run of one store
 * </pre>
 */
class FaultsIT {

    @Test
    void locksKeepTheirPromisesUnderFaults() throws Exception {
        RunSettings settings = RunSettings.fromSystemProperties();
        String header = "Baton fault-injection run, " + Instant.now() + ": seed " + settings.seed() + ", fault phase "
                + settings.faultPhase() + " and fairness phase " + settings.fairnessPhase() + " per store, "
                + settings.workers() + " workers x " + settings.threads() + " threads"
                + (settings.leadership() ? " and a leader election" : "")
                + (settings.shared() ? ", shared mode where the store keeps shared leases" : "") + ", ttl "
                + settings.ttlMillis() + " ms\n"
                + "(rerun with -Dfaults.seed=" + settings.seed() + " for the same schedule of faults)\n";
        StringBuilder text = new StringBuilder(header);
        Map<StoreKind, Report> reports = new LinkedHashMap<>();
        Files.createDirectories(settings.dir());
        for (StoreKind store : settings.stores()) {
            Report report = new FaultRun(settings, store).run();
            reports.put(store, report);
            text.append('\n').append(report.text());
            write(settings.report(), text + tables(reports));
        }
        text.append(tables(reports));
        System.out.println();
        System.out.println(text);
        assertThat(reports.values()).as(text.toString()).noneMatch(Report::failed);
    }

    /** The tables of RELIABILITY.md: per store, store x fault, the shared mode and leadership per store. */
    private static String tables(Map<StoreKind, Report> reports) {
        StringBuilder out =
                new StringBuilder("\nPer store:\n\n").append(Tally.STORE_HEADER).append('\n');
        reports.forEach((store, report) ->
                out.append(report.tally().storeRow(store.title())).append('\n'));
        out.append("\nStore x fault:\n\n").append(Tally.FAULT_HEADER).append('\n');
        reports.forEach((store, report) -> report.tally()
                .faultRows(store.title())
                .forEach(row -> out.append(row).append('\n')));
        if (reports.values().stream().anyMatch(r -> r.tally().sharedRow("").isPresent())) {
            out.append("\nShared mode (permits, read/write locks):\n\n")
                    .append(Tally.SHARED_HEADER)
                    .append('\n');
            reports.forEach((store, report) -> report.tally()
                    .sharedRow(store.title())
                    .ifPresent(row -> out.append(row).append('\n')));
        }
        if (reports.values().stream().anyMatch(r -> r.tally().leadershipRow("").isPresent())) {
            out.append("\nLeadership:\n\n").append(Tally.LEADERSHIP_HEADER).append('\n');
            reports.forEach((store, report) -> report.tally()
                    .leadershipRow(store.title())
                    .ifPresent(row -> out.append(row).append('\n')));
        }
        return out.toString();
    }

    private static void write(Path file, String text) throws Exception {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
