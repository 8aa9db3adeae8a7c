package dev.baton.examples.orders.demo.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a Payara Micro log (its default format: each record starts with {@code [<timestamp>]}, then the level and
 * the logger in brackets; a message over several lines is wrapped in {@code [[ ... ]]}) for what Baton warned of.
 */
public final class ServerLog {

    private static final Pattern TERMINAL_COLOURS = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final Pattern RECORD_START = Pattern.compile("^\\[\\d{4}-\\d\\d-\\d\\dT");
    private static final Pattern LEVEL_AND_LOGGER =
            Pattern.compile("^\\[[^\\]]*\\] \\[[^\\]]*\\] \\[(\\w+)\\] \\[[^\\]]*\\] \\[([^\\]]*)\\]");
    private static final Pattern BATON_ID = Pattern.compile("BATON-(?:[A-Z]+-)?\\d{3}");

    private ServerLog() {}

    /**
     * The records of level WARNING or SEVERE that Baton logged (its loggers are {@code dev.baton...}; its messages
     * start with their id), except those with an expected id.
     *
     * @param log the server's log file
     * @param expectedIds ids that may be logged, e.g. {@code BATON-JPA-020} for a database private to the JVM
     * @return each such record, its first lines
     */
    public static List<String> batonWarnings(Path log, Set<String> expectedIds) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the server log " + log, e);
        }
        List<String> warnings = new ArrayList<>();
        StringBuilder record = null;
        for (String raw : lines) {
            String line = TERMINAL_COLOURS.matcher(raw).replaceAll("");
            if (RECORD_START.matcher(line).find()) {
                addIfBatonWarning(record, expectedIds, warnings);
                record = new StringBuilder(line);
            } else if (record != null) {
                record.append('\n').append(line);
            }
        }
        addIfBatonWarning(record, expectedIds, warnings);
        return warnings;
    }

    private static void addIfBatonWarning(StringBuilder record, Set<String> expectedIds, List<String> warnings) {
        if (record == null) {
            return;
        }
        String text = record.toString();
        Matcher header = LEVEL_AND_LOGGER.matcher(text);
        if (!header.find()
                || !(header.group(1).equals("WARNING") || header.group(1).equals("SEVERE"))) {
            return;
        }
        Matcher id = BATON_ID.matcher(text.substring(header.end()));
        boolean hasId = id.find();
        if (!header.group(2).startsWith("dev.baton") && !hasId) {
            return;
        }
        if (hasId && expectedIds.contains(id.group())) {
            return;
        }
        warnings.add(text.lines().limit(4).reduce((a, b) -> a + "\n" + b).orElse(text));
    }
}
