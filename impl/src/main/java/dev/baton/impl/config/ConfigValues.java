package dev.baton.impl.config;

import dev.baton.LockConfigurationException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.eclipse.microprofile.config.Config;

/**
 * The values of one MicroProfile Config as Baton reads them: trimmed, a blank value taken as unset, each parsed
 * or else reported with its key and value. The problems are collected, not thrown one by one, so that a failed
 * deployment names every wrong key at once, in the order the keys were read.
 */
final class ConfigValues {

    private final Config config;
    private final List<String> problems = new ArrayList<>();

    ConfigValues(Config config) {
        this.config = config;
    }

    /**
     * @param key the full key
     * @return the value as configured, spaces and all (a prefix's are part of it)
     */
    Optional<String> raw(String key) {
        return config.getOptionalValue(key, String.class);
    }

    /**
     * @param key the full key
     * @return the value trimmed, if set and not blank
     */
    Optional<String> text(String key) {
        return raw(key).map(String::trim).filter(s -> !s.isEmpty());
    }

    /**
     * @param prefix the start of the keys
     * @return the configured keys that start with it, sorted
     */
    List<String> keysStartingWith(String prefix) {
        List<String> keys = new ArrayList<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(prefix)) {
                keys.add(name);
            }
        }
        Collections.sort(keys);
        return keys;
    }

    /**
     * @param text an integer, maybe with spaces around it
     * @return the integer, or empty if it is none
     */
    static Optional<Integer> integer(String text) {
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Reports a value that is not an integer. */
    void checkInteger(String key, Optional<String> value) {
        if (value.isPresent() && integer(value.get()).isEmpty()) {
            problem(key + ": '" + value.get() + "' is not an integer");
        }
    }

    /** A duration ({@link Durations}), or the fallback when it is unset or (reported) invalid. */
    long duration(String key, long fallback) {
        Optional<String> raw = text(key);
        if (raw.isEmpty()) {
            return fallback;
        }
        try {
            return Durations.parseMillis(raw.get(), key);
        } catch (LockConfigurationException e) {
            problem(e.getMessage());
            return fallback;
        }
    }

    /** A duration ({@link Durations}) with no default: empty when it is unset or (reported) invalid. */
    OptionalLong duration(String key) {
        if (text(key).isEmpty()) {
            return OptionalLong.empty();
        }
        int before = problems.size();
        long millis = duration(key, 0);
        return problems.size() > before ? OptionalLong.empty() : OptionalLong.of(millis);
    }

    /** {@code true} or {@code false} in any case, or the fallback when it is unset or (reported) neither. */
    boolean bool(String key, boolean fallback) {
        Optional<String> raw = text(key);
        if (raw.isEmpty()) {
            return fallback;
        }
        String value = raw.get().toLowerCase(Locale.ROOT);
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        problem(key + ": '" + raw.get() + "' is not true or false");
        return fallback;
    }

    /** @param problem what is wrong, naming the key and the value */
    void problem(String problem) {
        problems.add(problem);
    }

    /** @return how many problems were found so far: a reader compares two counts to know whether it found one */
    int problemCount() {
        return problems.size();
    }

    /**
     * @throws LockConfigurationException listing every problem found, if any
     */
    void failOnProblems() {
        if (!problems.isEmpty()) {
            throw new LockConfigurationException("Invalid Baton configuration: " + String.join("; ", problems));
        }
    }
}
