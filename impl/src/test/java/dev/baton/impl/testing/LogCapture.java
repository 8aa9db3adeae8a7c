package dev.baton.impl.testing;

import java.text.MessageFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Baton's log lines (logger {@code dev.baton}), formatted, while it is open. */
public final class LogCapture extends Handler implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();

    private LogCapture() {}

    /** @return a capture that has started */
    public static LogCapture start() {
        LogCapture capture = new LogCapture();
        Logger.getLogger("dev.baton").addHandler(capture);
        return capture;
    }

    /** @return the lines logged so far */
    public List<String> lines() {
        return lines;
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(
                record.getParameters() == null
                        ? record.getMessage()
                        : MessageFormat.format(record.getMessage(), record.getParameters()));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        Logger.getLogger("dev.baton").removeHandler(this);
    }
}
