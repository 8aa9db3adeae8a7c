package dev.baton.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one run, each beside the baseline of the same run, written as Markdown and JSON.
 */
final class Report {

    /**
     * One figure.
     *
     * @param measure the row of issue 13
     * @param scenario store, threads, mode…
     * @param name what the value is (e.g. "ops/s", "p99 ms")
     * @param baton Baton's value
     * @param baseline the baseline's value in the same run, NaN if none
     * @param baselineName what the baseline is
     * @param ratio baton/baseline or baseline/baton as the row says, NaN if none
     * @param note how it was measured
     */
    record Figure(
            String measure,
            String scenario,
            String name,
            double baton,
            double baseline,
            String baselineName,
            double ratio,
            String note) {}

    /** The sections of the report, by title, in the order they were first added to; "" is the main table. */
    private final Map<String, List<Figure>> sections = new LinkedHashMap<>();

    /** The value column's heading of a section, where it is not Baton's (the peers'). */
    private final Map<String, String> valueColumns = new LinkedHashMap<>();

    private final List<String> problems = new ArrayList<>();
    private final String mode;

    Report(String mode) {
        this.mode = mode;
    }

    /** Adds a figure to the main table. */
    void add(Figure figure) {
        add("", figure);
    }

    /**
     * Adds a figure to a section of its own, after the main table.
     *
     * @param section the section's title; "" for the main table
     * @param figure the figure
     */
    void add(String section, Figure figure) {
        synchronized (sections) {
            sections.computeIfAbsent(section, s -> new ArrayList<>()).add(figure);
        }
        System.out.printf(
                Locale.ROOT,
                "  %-40s %-34s %-14s %12s   baseline %12s (%s)   ratio %s%n",
                figure.measure(),
                figure.scenario(),
                figure.name(),
                num(figure.baton()),
                num(figure.baseline()),
                figure.baselineName(),
                num(figure.ratio()));
    }

    /**
     * Names the value column of a section whose figures are not all Baton's.
     *
     * @param section the section's title
     * @param heading the column's heading
     */
    void valueColumn(String section, String heading) {
        synchronized (sections) {
            valueColumns.put(section, heading);
        }
    }

    void problem(String what) {
        problems.add(what);
        System.out.println("  PROBLEM: " + what);
    }

    void write(Path markdown, Path json, String machine) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append("# Baton benchmarks\n\n");
        md.append("Run ").append(Instant.now()).append(", ").append(mode).append(".\n\n");
        md.append("Machine: ").append(machine).append("\n\n");
        sections.forEach((title, figures) -> {
            if (!title.isEmpty()) {
                md.append(md.charAt(md.length() - 2) == '\n' ? "" : "\n")
                        .append("## ")
                        .append(title)
                        .append("\n\n");
            }
            table(md, figures, valueColumns.getOrDefault(title, "Baton"));
        });
        if (!problems.isEmpty()) {
            md.append("\n## Not measured in this run\n\n");
            for (String p : problems) {
                md.append("- ").append(p).append('\n');
            }
        }
        Files.writeString(markdown, md);

        StringBuilder js = new StringBuilder();
        js.append("{\n  \"run\": ")
                .append(str(Instant.now().toString()))
                .append(",\n  \"mode\": ")
                .append(str(mode))
                .append(",\n  \"machine\": ")
                .append(str(machine))
                .append(",\n  \"figures\": ");
        json(js, sections.getOrDefault("", List.of()));
        js.append(",\n  \"sections\": [");
        String comma = "";
        for (Map.Entry<String, List<Figure>> section : sections.entrySet()) {
            if (section.getKey().isEmpty()) {
                continue;
            }
            js.append(comma)
                    .append("\n    {\"title\": ")
                    .append(str(section.getKey()))
                    .append(", \"figures\": ");
            json(js, section.getValue());
            js.append("}");
            comma = ",";
        }
        js.append(comma.isEmpty() ? "]" : "\n  ]").append(",\n  \"notMeasured\": [");
        for (int i = 0; i < problems.size(); i++) {
            js.append(i == 0 ? "" : ", ").append(str(problems.get(i)));
        }
        js.append("]\n}\n");
        Files.writeString(json, js);
    }

    private static void table(StringBuilder md, List<Figure> figures, String valueColumn) {
        md.append("| measure | scenario | value | ")
                .append(valueColumn)
                .append(" | baseline (same run) | baseline | ratio | how |\n");
        md.append("|---|---|---|---:|---:|---|---:|---|\n");
        for (Figure f : figures) {
            md.append("| ")
                    .append(f.measure())
                    .append(" | ")
                    .append(f.scenario())
                    .append(" | ")
                    .append(f.name())
                    .append(" | ")
                    .append(num(f.baton()))
                    .append(" | ")
                    .append(num(f.baseline()))
                    .append(" | ")
                    .append(f.baselineName())
                    .append(" | ")
                    .append(num(f.ratio()))
                    .append(" | ")
                    .append(f.note())
                    .append(" |\n");
        }
    }

    private static void json(StringBuilder js, List<Figure> figures) {
        js.append("[\n");
        for (int i = 0; i < figures.size(); i++) {
            Figure f = figures.get(i);
            js.append("    {\"measure\": ")
                    .append(str(f.measure()))
                    .append(", \"scenario\": ")
                    .append(str(f.scenario()))
                    .append(", \"value\": ")
                    .append(str(f.name()))
                    .append(", \"baton\": ")
                    .append(jnum(f.baton()))
                    .append(", \"baseline\": ")
                    .append(jnum(f.baseline()))
                    .append(", \"baselineName\": ")
                    .append(str(f.baselineName()))
                    .append(", \"ratio\": ")
                    .append(jnum(f.ratio()))
                    .append(", \"how\": ")
                    .append(str(f.note()))
                    .append(i + 1 < figures.size() ? "},\n" : "}\n");
        }
        js.append("  ]");
    }

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "—";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String jnum(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : Double.toString(v);
    }

    private static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
