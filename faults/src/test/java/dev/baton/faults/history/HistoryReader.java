package dev.baton.faults.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads history files; a torn last line (a process killed while writing it) is skipped. */
public final class HistoryReader {

    private HistoryReader() {}

    /**
     * @param file a history
     * @return its events, in file order
     */
    public static List<Event> read(Path file) {
        try {
            return parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the history " + file, e);
        }
    }

    /**
     * @param text the content of a history
     * @return its complete, well-formed lines as events
     */
    public static List<Event> parse(String text) {
        List<Event> events = new ArrayList<>();
        int start = 0;
        int end;
        while ((end = text.indexOf('\n', start)) >= 0) { // a line without its line feed is torn
            Event.parse(text.substring(start, end)).ifPresent(events::add);
            start = end + 1;
        }
        return events;
    }
}
