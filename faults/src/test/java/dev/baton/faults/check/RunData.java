package dev.baton.faults.check;

import dev.baton.faults.history.Event;
import dev.baton.faults.history.HistoryReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Everything a run left: the workers' histories, the nemesis's, and the database's journals.
 *
 * @param workers every worker event, of every process
 * @param nemesis the nemesis's events
 * @param journal the database's journal rows (see {@link dev.baton.faults.history.Vocabulary#LOCK_ROW} and
 *     the following)
 */
public record RunData(List<Event> workers, List<Event> nemesis, List<Event> journal) {

    /** The nemesis's history file in a run directory. */
    public static final String NEMESIS_FILE = "nemesis.hist";
    /** The exported database journals in a run directory. */
    public static final String JOURNAL_FILE = "journal.hist";
    /** The prefix of worker history files. */
    public static final String WORKER_PREFIX = "worker-";

    /**
     * Reads a run directory: {@code worker-*.hist}, {@value #NEMESIS_FILE}, {@value #JOURNAL_FILE}.
     *
     * @param dir the directory
     * @return the data
     */
    public static RunData load(Path dir) {
        List<Event> workers = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().startsWith(WORKER_PREFIX)
                            && f.getFileName().toString().endsWith(".hist"))
                    .sorted()
                    .forEach(f -> workers.addAll(HistoryReader.read(f)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        Path journal = dir.resolve(JOURNAL_FILE);
        return new RunData(
                workers,
                HistoryReader.read(dir.resolve(NEMESIS_FILE)),
                Files.exists(journal) ? HistoryReader.read(journal) : List.of());
    }
}
