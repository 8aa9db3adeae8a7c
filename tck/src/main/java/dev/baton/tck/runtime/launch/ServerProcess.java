package dev.baton.tck.runtime.launch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A child server process: started from a command, its output (standard output and error together) going to a
 * log file, which a thread of its own follows as it grows (reading each byte once, line by line) and keeps the
 * lines for {@link #awaitLine(Predicate, Duration)} and {@link #tail(int)}. The process writes the file itself,
 * so its log is complete even when this JVM stops reading. {@link #stop(Duration)} asks it to stop
 * (SIGTERM, so shutdown hooks run) and kills it after a grace period.
 *
 * <pre>{@code
 * ServerProcess server = ServerProcess.start(command, workingDirectory, log);
 * if (server.awaitLine(line -> line.contains("ready"), Duration.ofMinutes(1)).isEmpty()) {
 *     throw new IllegalStateException("not ready; the last lines:\n" + server.tail(40));
 * }
 * ...
 * server.stop(Duration.ofSeconds(30));
 * }</pre>
 */
public final class ServerProcess {

    private static final Pattern TERMINAL_COLOURS = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    /** How long the follower sleeps at the end of the file before it looks again. */
    private static final long FOLLOW_MILLIS = 20;

    private final Process process;
    private final Path logFile;
    private final Thread reader;
    private final List<String> lines = new ArrayList<>();
    private boolean ended;
    private IOException readFailure;

    private ServerProcess(Process process, Path logFile) throws IOException {
        this.process = process;
        this.logFile = logFile;
        InputStream log = Files.newInputStream(logFile);
        this.reader = new Thread(() -> follow(log), "server-process-" + process.pid() + "-log");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code command}.
     *
     * @param command the program and its arguments
     * @param workingDirectory the process's working directory, {@code null} for this JVM's
     * @param logFile where its output goes (created, or emptied); its parent directories are created
     * @return the running process
     * @throws IOException if the process cannot be started or the log file cannot be written
     */
    public static ServerProcess start(List<String> command, Path workingDirectory, Path logFile) throws IOException {
        Path parent = logFile.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
        if (workingDirectory != null) {
            builder.directory(workingDirectory.toFile());
        }
        Process process = builder.start();
        try {
            return new ServerProcess(process, logFile);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private void follow(InputStream log) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (InputStream file = log) {
            boolean exited = false;
            while (true) {
                int read = file.read(buffer);
                if (read > 0) {
                    for (int i = 0; i < read; i++) {
                        if (buffer[i] == '\n') {
                            add(line);
                        } else {
                            line.write(buffer[i]);
                        }
                    }
                } else if (exited) {
                    break; // the end of the file after the process had exited: all of it is read
                } else {
                    // read once more after the exit: what the process wrote last
                    exited = !process.isAlive();
                    if (!exited) {
                        Thread.sleep(FOLLOW_MILLIS);
                    }
                }
            }
            if (line.size() > 0) {
                add(line);
            }
        } catch (IOException e) {
            synchronized (this) {
                readFailure = e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    private void add(ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (text.endsWith("\r")) {
            text = text.substring(0, text.length() - 1);
        }
        String plain = TERMINAL_COLOURS.matcher(text).replaceAll("");
        synchronized (this) {
            lines.add(plain);
            notifyAll();
        }
    }

    /**
     * Waits until a line of the output (one already read counts too) matches {@code line}, the output ends
     * and the process has exited, or {@code timeout} passes.
     *
     * @param line what the line must satisfy (it is given without terminal colours)
     * @param timeout how long to wait at most
     * @return the first matching line, or empty if none came
     * @throws InterruptedException if interrupted while waiting
     */
    public Optional<String> awaitLine(Predicate<String> line, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int checked = 0;
        synchronized (this) {
            while (!ended) {
                for (; checked < lines.size(); checked++) {
                    if (line.test(lines.get(checked))) {
                        return Optional.of(lines.get(checked));
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return Optional.empty();
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            for (; checked < lines.size(); checked++) {
                if (line.test(lines.get(checked))) {
                    return Optional.of(lines.get(checked));
                }
            }
        }
        // the output has ended: the process is exiting (give it the rest of the time to be gone)
        process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        return Optional.empty();
    }

    /**
     * The first line read so far that matches {@code line}.
     *
     * @param line what the line must satisfy
     * @param following how many lines after it to add
     * @return the line and up to {@code following} lines after it, joined by newlines, or empty
     */
    public Optional<String> firstLine(Predicate<String> line, int following) {
        readToTheEndIfExited();
        synchronized (this) {
            return firstLineSoFar(line, following);
        }
    }

    private Optional<String> firstLineSoFar(Predicate<String> line, int following) {
        for (int i = 0; i < lines.size(); i++) {
            if (line.test(lines.get(i))) {
                return Optional.of(String.join("\n", lines.subList(i, Math.min(lines.size(), i + 1 + following))));
            }
        }
        return Optional.empty();
    }

    /**
     * The last lines of the output read so far, without terminal colours.
     *
     * @param count how many
     * @return the lines, joined by newlines
     */
    public String tail(int count) {
        readToTheEndIfExited();
        synchronized (this) {
            return tailSoFar(count);
        }
    }

    private String tailSoFar(int count) {
        String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
        return readFailure == null ? tail : tail + "\n(cannot read further: " + readFailure + ")";
    }

    /** Once the process has exited, lets the follower read what it wrote last (at most a second). */
    private void readToTheEndIfExited() {
        if (!process.isAlive() && Thread.currentThread() != reader) {
            try {
                reader.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return the file the output goes to */
    public Path logFile() {
        return logFile;
    }

    /** @return the operating system's process id */
    public long pid() {
        return process.pid();
    }

    /** @return the operating system's view of the process */
    public ProcessHandle toHandle() {
        return process.toHandle();
    }

    /** @return whether the process is still running */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * @return the exit code
     * @throws IllegalThreadStateException if the process is still running
     */
    public int exitValue() {
        return process.exitValue();
    }

    /**
     * Stops the process: a normal termination request (SIGTERM) first, then a forced one after
     * {@code grace}. Returns once it has exited and its output has been read to the end (or after a
     * further 10 s if even the forced stop does not end it). Nothing happens if it has already exited.
     *
     * @param grace how long it may take to stop by itself
     * @return whether it stopped within {@code grace} (or had already stopped); {@code false} if it was killed
     */
    public boolean stop(Duration grace) {
        boolean graceful = true;
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    graceful = false;
                    process.destroyForcibly().waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            reader.join(KILL_WAIT.toMillis());
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
        return graceful;
    }

    @Override
    public String toString() {
        return "process " + process.pid() + " (log " + logFile + ")";
    }
}
