package dev.baton.tck;

import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What a logger and the loggers below it log while the capture is open, for a test that checks a store's or the
 * runtime's messages (Baton logs through {@code System.Logger}, which the JDK routes to {@code java.util.logging}
 * unless the application installs another backend). Messages are kept formatted, ids first, as a reader sees them.
 *
 * <pre>{@code
 * try (LogCapture log = LogCapture.start("dev.baton")) {
 *     store.acquire(...);
 *     assertThat(log.messages(Level.WARNING, "BATON-JPA-020")).hasSize(1);
 * }
 * }</pre>
 */
public final class LogCapture extends Handler implements AutoCloseable {

    private record Line(Level level, String message) {}

    private final Logger logger;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
    }

    /**
     * @param loggerName the logger to listen to, with the loggers below it (e.g. {@code dev.baton})
     * @return a capture that has started; close it to stop
     */
    public static LogCapture start(String loggerName) {
        LogCapture capture = new LogCapture(Logger.getLogger(loggerName));
        capture.logger.addHandler(capture);
        return capture;
    }

    /** @return every message logged so far, formatted, in order */
    public List<String> messages() {
        return lines.stream().map(Line::message).toList();
    }

    /**
     * @param atLeast the lowest level to keep
     * @param prefix what the messages start with (a log id such as {@code BATON-020}, or {@code ""} for all)
     * @return the messages logged so far at {@code atLeast} or above that start with {@code prefix}
     */
    public List<String> messages(Level atLeast, String prefix) {
        return lines.stream()
                .filter(line -> line.level().intValue() >= atLeast.intValue())
                .map(Line::message)
                .filter(message -> message.startsWith(prefix))
                .toList();
    }

    @Override
    public void publish(LogRecord record) {
        Object[] parameters = record.getParameters();
        String message = record.getMessage();
        lines.add(new Line(
                record.getLevel(),
                parameters == null || parameters.length == 0 || message == null
                        ? String.valueOf(message)
                        : MessageFormat.format(message, parameters)));
    }

    @Override
    public void flush() {}

    /** Stops listening; what was captured stays readable. */
    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
