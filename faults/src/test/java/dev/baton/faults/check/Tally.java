package dev.baton.faults.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The numbers of one run for the table of {@code RELIABILITY.md}, store x fault: what each fault was
 * injected, the overlaps and lost updates it explains, and the recovery after it; and per store the
 * sections, the protected writes and the violations.
 */
public final class Tally {

    /** The numbers of one fault kind (or of a cause that is no injected fault: {@code own-pause}). */
    static final class PerFault {
        long injected;
        int overlaps;
        long longestOverlapMillis;
        int lostUpdates;
        String recovery = "";
    }

    final Map<String, PerFault> byFault = new TreeMap<>();
    int sections;
    int accepted;
    int refused;
    int staleAccepted;
    int unexplainedOverlaps;
    int tokenRegressions;
    int unexplainedLostUpdates;
    boolean tokenColumn;
    /** Leadership: the terms, the faults of the leader by kind, the takeover times (ms), and overlapping terms. */
    int terms;

    /** Shared mode: why it did not run (null when it ran, or was not asked about). */
    String sharedModeOff;
    /** Shared mode: the sections by mode ({@code permit}, {@code read}, {@code write}). */
    final Map<String, Integer> sharedSections = new TreeMap<>();
    /** Shared mode: the most sections of each mode that held their key at once. */
    final Map<String, Integer> mostAtOnce = new TreeMap<>();
    /** Shared mode: the permits of the permit key, as its holders asked for them (0: no permit was held). */
    int permits;
    /** Shared mode: the faults of a process that caught it holding a shared lease, by kind. */
    final Map<String, Integer> sharedHolderFaults = new TreeMap<>();
    /** Shared mode: holders beyond a limit (permits, a writer's) that a fault of the older holders explains, by cause. */
    final Map<String, Integer> sharedExplained = new TreeMap<>();
    /** Shared mode: by cause, the earliest such holder, in ms after the fault or pause that explains it began. */
    final Map<String, Long> sharedExplainedEarliest = new TreeMap<>();

    int permitsExceeded;
    int writerNotAlone;
    /** Shared mode: token violations of the shared keys (also counted in {@link #tokenRegressions}). */
    int sharedTokenViolations;

    final Map<String, Integer> leaderFaults = new TreeMap<>();
    final List<Double> takeovers = new ArrayList<>();
    final Map<String, Integer> explainedTermOverlaps = new TreeMap<>();
    int unexplainedTermOverlaps;

    PerFault fault(String label) {
        return byFault.computeIfAbsent(label, l -> new PerFault());
    }

    void overlap(String cause, long millis) {
        PerFault f = fault(cause);
        f.overlaps++;
        f.longestOverlapMillis = Math.max(f.longestOverlapMillis, millis);
    }

    /** @return the overlaps by cause, e.g. {@code {partition=3, stop=2}} (unexplained ones not included) */
    public Map<String, Integer> overlapsByCause() {
        Map<String, Integer> out = new TreeMap<>();
        byFault.forEach((k, v) -> {
            if (v.overlaps > 0) {
                out.put(k, v.overlaps);
            }
        });
        return out;
    }

    /**
     * @param store the store's name, the first column
     * @return the rows of the store x fault table, markdown
     */
    public List<String> faultRows(String store) {
        List<String> rows = new ArrayList<>();
        byFault.forEach((fault, f) -> rows.add(String.format(
                Locale.ROOT,
                "| %s | %s | %d | %s | %d | %s |",
                store,
                fault,
                f.injected,
                f.overlaps == 0 ? "0" : f.overlaps + " (longest " + f.longestOverlapMillis + " ms)",
                f.lostUpdates,
                f.recovery.isEmpty() ? "—" : f.recovery)));
        return rows;
    }

    /**
     * @param store the store's name, the first column
     * @return the store's row of the per-store table, markdown
     */
    public String storeRow(String store) {
        return String.format(
                Locale.ROOT,
                "| %s | %d | %s | %d | %s | %d / %d / %d | %d | %d |",
                store,
                sections,
                overlapsByCause().isEmpty()
                        ? "none"
                        : overlapsByCause().toString().replaceAll("[{}]", ""),
                unexplainedOverlaps,
                tokenColumn ? "token column" : "FencedWrites",
                accepted,
                refused,
                staleAccepted,
                tokenRegressions,
                unexplainedLostUpdates);
    }

    /**
     * @param store the store's name, the first column
     * @return the store's row of the leadership table, markdown; empty when the run had no election
     */
    public java.util.Optional<String> leadershipRow(String store) {
        if (terms == 0) {
            return java.util.Optional.empty();
        }
        double[] sorted =
                takeovers.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return java.util.Optional.of(String.format(
                Locale.ROOT,
                "| %s | %d | %s | %d | %s | %s | %d |",
                store,
                terms,
                leaderFaults.isEmpty() ? "none" : leaderFaults.toString().replaceAll("[{}]", ""),
                sorted.length,
                sorted.length == 0
                        ? "—"
                        : String.format(
                                Locale.ROOT, "%,.0f / %,.0f ms", Percentiles.of(sorted, 50), sorted[sorted.length - 1]),
                explainedTermOverlaps.isEmpty()
                        ? "none"
                        : explainedTermOverlaps.toString().replaceAll("[{}]", ""),
                unexplainedTermOverlaps));
    }

    void sharedExplained(String cause, long millisIntoCause) {
        sharedExplained.merge(cause, 1, Integer::sum);
        sharedExplainedEarliest.merge(cause, millisIntoCause, Math::min);
    }

    /** @return e.g. {@code stop=19 (1,912 ms)}: by cause, how many, and the earliest after the cause began; or none */
    String sharedExplainedText() {
        if (sharedExplained.isEmpty()) {
            return "none";
        }
        return sharedExplained.entrySet().stream()
                .map(e -> String.format(
                        Locale.ROOT,
                        "%s=%d (%,d ms)",
                        e.getKey(),
                        e.getValue(),
                        sharedExplainedEarliest.get(e.getKey())))
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * @param store the store's name, the first column
     * @return the store's row of the shared-mode table, markdown; empty when the run says nothing of a shared mode
     */
    public java.util.Optional<String> sharedRow(String store) {
        if (sharedModeOff != null) {
            return java.util.Optional.of("| " + store + " | skipped: " + sharedModeOff + " | | | | | | |");
        }
        if (sharedSections.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(String.format(
                Locale.ROOT,
                "| %s | %d / %d / %d | %d (of %d) / %d / %d | %s | %s | %d | %d | %d |",
                store,
                sharedSections.getOrDefault("permit", 0),
                sharedSections.getOrDefault("read", 0),
                sharedSections.getOrDefault("write", 0),
                mostAtOnce.getOrDefault("permit", 0),
                permits,
                mostAtOnce.getOrDefault("read", 0),
                mostAtOnce.getOrDefault("write", 0),
                sharedHolderFaults.isEmpty()
                        ? "none"
                        : sharedHolderFaults.toString().replaceAll("[{}]", ""),
                sharedExplainedText(),
                permitsExceeded,
                writerNotAlone,
                sharedTokenViolations));
    }

    /** The header of {@link #sharedRow}. */
    public static final String SHARED_HEADER = "| store | sections: permit / read / write"
            + " | most at once: permit holders (of the permits) / readers / writers | faults that caught a holder"
            + " | holders beyond a limit explained, by cause (the earliest, after the cause began)"
            + " | **more holders than permits** | **writer not alone**"
            + " | **token violations** |\n|---|---|---|---|---|---|---|---|";

    /** The header of {@link #leadershipRow}. */
    public static final String LEADERSHIP_HEADER = "| store | terms | faults of the leader | takeovers"
            + " | takeover p50 / max | overlapping terms explained, by cause | **overlapping terms not explained** |"
            + "\n|---|---|---|---|---|---|---|";

    /** The header of {@link #faultRows}. */
    public static final String FAULT_HEADER = "| store | fault (or cause) | injected | overlaps it explains (pairs)"
            + " | lost updates it explains | recovery (p50 / max) |\n|---|---|---|---|---|---|";

    /** The header of {@link #storeRow}. */
    public static final String STORE_HEADER = "| store | sections | overlaps explained, by cause | **not explained**"
            + " | protection | protected writes accepted / refused / accepted from a superseded token"
            + " | **token regressions** | **lost updates not explained** |\n|---|---|---|---|---|---|---|---|";
}
