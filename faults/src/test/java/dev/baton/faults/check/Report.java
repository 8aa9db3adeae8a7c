package dev.baton.faults.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker found: violations by category (each with its evidence lines) and figures. A run
 * fails when any category of violations is not empty.
 */
public final class Report {

    /** Overlapping sections that no fault of the older holder explains. */
    public static final String UNEXPLAINED_OVERLAP = "overlaps not explained by a fault of the older holder";
    /** Fenced writes accepted out of token order, or from a token that was no longer the key's. */
    public static final String FENCE = "fenced writes accepted out of token order or from a stale token";
    /** Tokens not strictly increasing per key. */
    public static final String TOKENS = "tokens not strictly increasing per key";
    /** Lost updates of the unfenced counter that no explained overlap accounts for. */
    public static final String LOST_UPDATES = "lost updates not explained by a fault";
    /** Shared mode: more holders of a key than the permits of an acquisition allowed, not explained by a fault. */
    public static final String PERMITS_EXCEEDED = "more holders than permits, not explained by a fault";
    /** Shared mode: a writer beside another holder (reader or writer) of its key, not explained by a fault. */
    public static final String WRITER_NOT_ALONE = "a writer beside another holder, not explained by a fault";

    private static final int EVIDENCE_LINES = 15;

    private final String title;
    private final Map<String, List<String>> violations = new LinkedHashMap<>();
    private final List<String> figures = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final Tally tally = new Tally();

    Report(String title) {
        this.title = title;
        for (String category :
                List.of(UNEXPLAINED_OVERLAP, FENCE, TOKENS, LOST_UPDATES, PERMITS_EXCEEDED, WRITER_NOT_ALONE)) {
            violations.put(category, new ArrayList<>());
        }
    }

    void violation(String category, String evidence) {
        violations.get(category).add(evidence);
        if (TOKENS.equals(category)) {
            tally.tokenRegressions++;
        }
    }

    void figure(String line) {
        figures.add(line);
    }

    void note(String line) {
        notes.add(line);
    }

    /**
     * @param category one of the constants of this class
     * @return the evidence lines of that category
     */
    public List<String> violations(String category) {
        return List.copyOf(violations.get(category));
    }

    /** @return the number of violations of every category */
    public int violationCount() {
        return violations.values().stream().mapToInt(List::size).sum();
    }

    /** @return whether the run must fail */
    public boolean failed() {
        return violationCount() > 0;
    }

    /** @return the numbers for the store x fault table */
    public Tally tally() {
        return tally;
    }

    /** @return the figures, one per line */
    public List<String> figures() {
        return List.copyOf(figures);
    }

    /** @return the report as text */
    public String text() {
        StringBuilder out = new StringBuilder();
        out.append("== ")
                .append(title)
                .append(": ")
                .append(failed() ? "FAILED, " + violationCount() + " violation(s)" : "passed")
                .append('\n');
        figures.forEach(f -> out.append("  ").append(f).append('\n'));
        violations.forEach((category, lines) -> {
            out.append("  ")
                    .append(lines.isEmpty() ? "ok  " : "FAIL")
                    .append(' ')
                    .append(category)
                    .append(": ")
                    .append(lines.size())
                    .append('\n');
            lines.stream()
                    .limit(EVIDENCE_LINES)
                    .forEach(l -> out.append("       ").append(l).append('\n'));
            if (lines.size() > EVIDENCE_LINES) {
                out.append("       ... and ")
                        .append(lines.size() - EVIDENCE_LINES)
                        .append(" more\n");
            }
        });
        notes.stream().limit(40).forEach(n -> out.append("  note: ").append(n).append('\n'));
        if (notes.size() > 40) {
            out.append("  note: ... and ").append(notes.size() - 40).append(" more\n");
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return text();
    }
}
