package dev.baton.impl.logging;

import dev.baton.spi.KeyFormat;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * A copy of a logged cause whose messages no longer name the key: the store's or the driver's exception says
 * {@code failed renewing 'customer:ann@example.com'}, and a log line that writes keys hashed must not print it in
 * its stack trace. The copy prints as the original does ({@code <class name>: <message>}), with the same stack
 * trace and causes, each message with the key written in the configured form; only the class differs, which a log
 * line does not show.
 */
final class RedactedCause extends Exception {

    private static final long serialVersionUID = 1L;

    /** Deeper chains are cut: a cause chain of this length is a loop or an accident. */
    private static final int MAX_DEPTH = 32;

    private final String type;

    private RedactedCause(String type, String message, Throwable cause, StackTraceElement[] trace) {
        super(message, cause, true, true);
        this.type = type;
        setStackTrace(trace);
    }

    /**
     * @param keys how keys are written
     * @param key the key the messages may name
     * @param thrown the cause, may be {@code null}
     * @return {@code thrown} itself when keys are plain or no message of its chain names the key; else its copy
     */
    static Throwable of(KeyFormat keys, String key, Throwable thrown) {
        if (keys == KeyFormat.PLAIN || thrown == null || !names(thrown, key)) {
            return thrown;
        }
        return copy(keys, key, thrown, Collections.newSetFromMap(new IdentityHashMap<>()), 0);
    }

    private static boolean names(Throwable thrown, String key) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            if (keys(t, key)) {
                return true;
            }
            for (Throwable suppressed : t.getSuppressed()) {
                if (names(suppressed, key)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean keys(Throwable t, String key) {
        String message = t.getMessage();
        return message != null && !key.isEmpty() && message.contains(key);
    }

    private static Throwable copy(KeyFormat keys, String key, Throwable thrown, Set<Throwable> seen, int depth) {
        seen.add(thrown);
        Throwable cause = thrown.getCause();
        Throwable copiedCause = cause != null && !seen.contains(cause) && depth < MAX_DEPTH
                ? copy(keys, key, cause, seen, depth + 1)
                : null;
        RedactedCause copy = new RedactedCause(
                thrown.getClass().getName(),
                keys.redact(thrown.getMessage(), key),
                copiedCause,
                thrown.getStackTrace());
        if (depth < MAX_DEPTH) {
            for (Throwable suppressed : thrown.getSuppressed()) {
                if (!seen.contains(suppressed)) {
                    copy.addSuppressed(copy(keys, key, suppressed, seen, depth + 1));
                }
            }
        }
        return copy;
    }

    @Override
    public String toString() {
        String message = getLocalizedMessage();
        return message == null ? type : type + ": " + message;
    }
}
