package dev.baton.tck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rules listed in {@value #RESOURCE}: every {@link TckRule} id of the TCK, the anchor of the specification's
 * assertion it checks, and its test.
 */
final class TckRules {

    /** The class path resource listing the rules. */
    static final String RESOURCE = "dev/baton/tck/rules.txt";

    /**
     * One line of the list.
     *
     * @param id the rule's id
     * @param spec the anchor of the specification's assertion it checks
     * @param test the test that checks it, {@code Class#method} under {@code dev.baton.tck}
     */
    record Rule(String id, String spec, String test) {

        /** @return the line of the list for this rule */
        String line() {
            return String.format("%-10s %-40s %s", id, spec, test);
        }
    }

    private static volatile Map<String, Rule> listed;

    private TckRules() {}

    /**
     * @return the listed rules by id, in the order of the list
     */
    static Map<String, Rule> listed() {
        Map<String, Rule> rules = listed;
        if (rules == null) {
            rules = read();
            listed = rules;
        }
        return rules;
    }

    private static Map<String, Rule> read() {
        InputStream in = TckRules.class.getClassLoader().getResourceAsStream(RESOURCE);
        if (in == null) {
            throw new IllegalStateException(RESOURCE + " is missing from the class path: a broken baton-tck jar");
        }
        Map<String, Rule> rules = new LinkedHashMap<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                String[] columns = text.split("\\s+");
                if (columns.length != 3
                        || rules.put(columns[0], new Rule(columns[0], columns[1], columns[2])) != null) {
                    throw new IllegalStateException(RESOURCE + " line " + number
                            + ": expected a new id, the anchor of the assertion it checks and its test, found '" + text
                            + "'");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + RESOURCE, e);
        }
        return Collections.unmodifiableMap(rules);
    }
}
