package dev.baton.spi;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.text.MessageFormat;
import java.util.Arrays;

/**
 * A log message with a stable id that operators can search for (such as {@code BATON-001} or
 * {@code BATON-JPA-004}), its level and its text. Baton's runtime and each of its stores keep their messages in
 * one enum that implements this interface, so an id, its level and its words are written once; a store of your
 * own can do the same with an id prefix of its own.
 *
 * <p>A {@linkplain #pattern() pattern} is a {@link MessageFormat} pattern ({@code ''} for a quote, {@code {0}} for
 * the first argument) without the id, which {@link #text()} puts first. Arguments are written as
 * {@link String#valueOf}, never in a locale's number format. Messages go through {@link System.Logger}, which
 * application servers route to their own logging.
 */
public interface LogMessage {

    /** @return the id, such as {@code BATON-001}: unique among all messages */
    String id();

    /** @return the level it is logged at */
    Level level();

    /** @return its {@link MessageFormat} pattern, without the id */
    String pattern();

    /** @return the id, a space and the pattern: what is logged */
    default String text() {
        return id() + " " + pattern();
    }

    /**
     * @param arguments the pattern's arguments
     * @return the message as it is logged: the id first, each argument written as {@link String#valueOf}
     */
    default String format(Object... arguments) {
        return arguments.length == 0
                ? text().replace("''", "'")
                : new MessageFormat(text())
                        .format(Arrays.stream(arguments).map(String::valueOf).toArray());
    }

    /**
     * Logs the message, formatted only if {@code logger} logs at its level.
     *
     * @param logger where
     * @param arguments the pattern's arguments
     */
    default void log(Logger logger, Object... arguments) {
        logger.log(level(), () -> format(arguments));
    }

    /**
     * Logs the message with its cause, formatted only if {@code logger} logs at its level. (A method of its own,
     * so that a single exception passed as an argument is never taken for the cause.)
     *
     * @param logger where
     * @param thrown the cause
     * @param arguments the pattern's arguments
     */
    default void logWithCause(Logger logger, Throwable thrown, Object... arguments) {
        logger.log(level(), () -> format(arguments), thrown);
    }
}
