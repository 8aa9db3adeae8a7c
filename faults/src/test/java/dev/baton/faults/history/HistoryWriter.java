package dev.baton.faults.history;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Appends events to a history file, one line per event, each with a single unbuffered {@code write}
 * on a file opened in append mode: a process killed with {@code SIGKILL} loses at most the line it was
 * writing, and lines of several threads never interleave.
 */
public final class HistoryWriter implements AutoCloseable {

    private final FileOutputStream out;

    /**
     * Opens (creating or appending to) a history.
     *
     * @param file the file
     */
    public HistoryWriter(Path file) {
        try {
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the history " + file, e);
        }
    }

    /**
     * Appends an event stamped now.
     *
     * @param type the type
     * @param namesAndValues alternating names and values
     * @return the time stamped
     */
    public long write(String type, Object... namesAndValues) {
        long now = System.nanoTime();
        write(Event.of(type, now, namesAndValues));
        return now;
    }

    /**
     * Appends an event.
     *
     * @param event the event
     */
    public void write(Event event) {
        byte[] line = event.toLine().getBytes(StandardCharsets.UTF_8);
        try {
            out.write(line); // one write(2) in append mode
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to a history", e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            // nothing left to lose: every line was written when it happened
        }
    }
}
