package dev.baton.tck.runtime.leadership;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The journals of the instances ({@link TermJournal}), as the test reads them: complete lines only, merged in
 * the order of the server's {@link System#nanoTime()}, and the terms they show.
 */
record Journals(List<Entry> entries) {

    /** One line. {@code end} is the end of an action ({@code acted}), else {@code nanos}. */
    record Entry(String kind, String instance, long token, long nanos, long millis, String detail) {

        long end() {
            return kind.equals("acted") ? Long.parseLong(detail) : nanos;
        }

        @Override
        public String toString() {
            return kind + " " + instance + " token=" + token + " t=" + nanos
                    + (kind.equals("acted") ? "..." + end() : "") + (kind.equals("revoked") ? " " + detail : "");
        }
    }

    /** A term of an instance: from its grant to its revocation (null while it runs). */
    record Term(String instance, long token, Entry granted, Entry revoked) {

        boolean contains(Entry action) {
            return action.instance().equals(instance)
                    && action.token() == token
                    && action.nanos() >= granted.nanos()
                    && (revoked == null || action.end() <= revoked.nanos());
        }

        @Override
        public String toString() {
            return instance + " token=" + token + " [" + granted.nanos() + ", "
                    + (revoked == null ? "running" : revoked.nanos() + " " + revoked.detail()) + "]";
        }
    }

    static Journals read(Path directory, String... instances) {
        List<Entry> entries = new ArrayList<>();
        for (String instance : instances) {
            entries.addAll(read(directory.resolve(instance + ".journal")));
        }
        entries.sort(Comparator.comparingLong(Entry::nanos));
        return new Journals(List.copyOf(entries));
    }

    private static List<Entry> read(Path file) {
        if (!Files.exists(file)) {
            return List.of();
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the journal " + file, e);
        }
        List<Entry> entries = new ArrayList<>();
        int end = text.lastIndexOf('\n');
        if (end < 0) {
            return entries;
        }
        for (String line : text.substring(0, end).split("\n")) {
            String[] field = line.split("\t", -1);
            if (field.length != 6) {
                throw new IllegalStateException("malformed journal line in " + file + ": " + line);
            }
            entries.add(new Entry(
                    field[0],
                    field[1],
                    Long.parseLong(field[2]),
                    Long.parseLong(field[3]),
                    Long.parseLong(field[4]),
                    field[5]));
        }
        return entries;
    }

    List<Entry> of(String kind, String instance) {
        return entries.stream()
                .filter(e -> e.kind().equals(kind) && e.instance().equals(instance))
                .toList();
    }

    List<Entry> of(String kind) {
        return entries.stream().filter(e -> e.kind().equals(kind)).toList();
    }

    /** The terms in the order they were granted; a revocation is matched to its grant by instance and token. */
    List<Term> terms() {
        List<Term> terms = new ArrayList<>();
        for (Entry granted : of("granted")) {
            Entry revoked = entries.stream()
                    .filter(e -> e.kind().equals("revoked")
                            && e.instance().equals(granted.instance())
                            && e.token() == granted.token())
                    .findFirst()
                    .orElse(null);
            terms.add(new Term(granted.instance(), granted.token(), granted, revoked));
        }
        return terms;
    }

    /** The term of {@code instance} granted last, if any. */
    Optional<Term> lastTermOf(String instance) {
        List<Term> terms =
                terms().stream().filter(t -> t.instance().equals(instance)).toList();
        return terms.isEmpty() ? Optional.empty() : Optional.of(terms.get(terms.size() - 1));
    }

    /** Every line but the actions and skips, which are counted per instance. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Entry e : entries) {
            if (e.kind().equals("granted")
                    || e.kind().equals("revoked")
                    || e.kind().equals("unseen")) {
                text.append("\n  ").append(e);
            }
        }
        for (String instance : entries.stream().map(Entry::instance).distinct().toList()) {
            text.append("\n  ")
                    .append(instance)
                    .append(": ")
                    .append(of("acted", instance).size())
                    .append(" actions, ")
                    .append(of("skipped", instance).size())
                    .append(" skipped calls");
        }
        return text.toString();
    }
}
