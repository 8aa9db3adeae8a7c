package dev.baton.faults.history;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One line of a history: a type, the {@link System#nanoTime()} at which it happened (comparable across
 * the processes of one Linux machine: the clock is {@code CLOCK_MONOTONIC}), and named fields.
 *
 * <p>On disk: {@code type<TAB>nano<TAB>name=value<TAB>...<LF>}. Values never contain a tab or a line
 * break (they are replaced by spaces when written).
 *
 * @param type what happened, e.g. {@code enter}
 * @param nano when, by {@link System#nanoTime()}
 * @param fields the named values, in the order written
 */
public record Event(String type, long nano, Map<String, String> fields) {

    public Event {
        Objects.requireNonNull(type, "type");
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /**
     * An event from alternating names and values.
     *
     * @param type the type
     * @param nano the time
     * @param namesAndValues {@code name1, value1, name2, value2, ...}; values are turned into strings
     * @return the event
     */
    public static Event of(String type, long nano, Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must come in pairs");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put(String.valueOf(namesAndValues[i]), String.valueOf(namesAndValues[i + 1]));
        }
        return new Event(type, nano, fields);
    }

    /** @return the line, with its line feed */
    public String toLine() {
        StringBuilder line =
                new StringBuilder(96).append(clean(type)).append('\t').append(nano);
        fields.forEach((name, value) ->
                line.append('\t').append(clean(name)).append('=').append(clean(value)));
        return line.append('\n').toString();
    }

    /**
     * Parses a line written by {@link #toLine()} (without its line feed).
     *
     * @param line the line
     * @return the event, or empty if the line is not one (e.g. torn)
     */
    public static Optional<Event> parse(String line) {
        String[] parts = line.split("\t");
        if (parts.length < 2 || parts[0].isEmpty()) {
            return Optional.empty();
        }
        long nano;
        try {
            nano = Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 2; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0) {
                return Optional.empty();
            }
            fields.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        return Optional.of(new Event(parts[0], nano, fields));
    }

    /**
     * @param name a field
     * @return its value
     * @throws IllegalStateException if the event has no such field
     */
    public String get(String name) {
        String value = fields.get(name);
        if (value == null) {
            throw new IllegalStateException("event has no field '" + name + "': " + toLine().strip());
        }
        return value;
    }

    /**
     * @param name a field
     * @return its value, if present
     */
    public Optional<String> find(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    /**
     * @param name a numeric field
     * @return its value
     */
    public long getLong(String name) {
        return Long.parseLong(get(name));
    }

    private static String clean(String s) {
        return s.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
