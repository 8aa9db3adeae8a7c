package dev.baton.tck;

import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * For a store author: what checks that the settings a factory declares ({@link LockStoreFactory#settingNames}),
 * the settings it reads and the settings its documentation lists are the same, so that Baton's warning about
 * unknown {@code baton.*} keys at deployment names neither a setting that works nor misses a misspelled one.
 */
public final class DeclaredSettings {

    private static final Pattern KEY_ROW = Pattern.compile("^\\| `(baton\\.[^`]+)` \\|");

    private DeclaredSettings() {}

    /**
     * The settings a factory's {@link LockStoreFactory#validate} asks its context for.
     *
     * @param factory the factory
     * @param values the settings that have values, by name below the store's prefix; the others are absent
     * @return the names of the settings it asked for, sorted
     */
    public static Set<String> askedByValidate(LockStoreFactory factory, Map<String, String> values) {
        Set<String> asked = new TreeSet<>();
        factory.validate(new StoreContext() {
            @Override
            public String managerName() {
                return "";
            }

            @Override
            public Optional<String> setting(String name) {
                asked.add(name);
                return Optional.ofNullable(values.get(name));
            }

            @Override
            public String settingKey(String name) {
                return "baton." + factory.name() + "." + name;
            }

            @Override
            public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
                return Optional.empty();
            }
        });
        return asked;
    }

    /**
     * The keys a Markdown document lists in the first column of its key tables: those whose header row is
     * {@code | key | default | meaning |}, as the tables of Baton's reference (docs/reference.md).
     *
     * @param document the Markdown file
     * @return the keys, in the order they are listed (placeholders such as {@code <manager>} as written)
     * @throws IOException when the file cannot be read
     */
    public static List<String> documentedKeys(Path document) throws IOException {
        List<String> keys = new ArrayList<>();
        boolean inKeyTable = false;
        for (String line : Files.readAllLines(document)) {
            if (line.startsWith("| key | default | meaning |")) {
                inKeyTable = true;
            } else if (!line.startsWith("|")) {
                inKeyTable = false;
            } else if (inKeyTable) {
                Matcher row = KEY_ROW.matcher(line);
                if (row.find()) {
                    keys.add(row.group(1));
                }
            }
        }
        return keys;
    }

    /**
     * Baton's warnings (logger {@code dev.baton}, level WARNING) while something runs, e.g. a container starts.
     *
     * @param action what to run
     * @return the warnings' messages with their ids, formatted
     */
    public static List<String> warningsWhile(Runnable action) {
        try (LogCapture capture = LogCapture.start("dev.baton")) {
            action.run();
            return capture.messages(Level.WARNING, "");
        }
    }
}
