package dev.baton.impl.store.file;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A forked JVM running {@link FileStoreChild} on the test class path, talked to line by line. */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final Path stderr;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line = out.readLine(); line != null; line = out.readLine()) {
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        lines.add("READ-FAILED " + e);
                    }
                },
                "child-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static ChildJvm start(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                FileStoreChild.class.getName()));
        command.addAll(List.of(args));
        return new ChildJvm(
                new ProcessBuilder(command).redirectError(log.toFile()).start(), log);
    }

    /** @return the next line the child printed, failing after {@code seconds} */
    String line(long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                return line;
            }
            if (!process.isAlive() && lines.isEmpty()) {
                throw new AssertionError("child " + process.pid() + " exited with " + process.exitValue()
                        + " (stderr in " + stderr + ")");
            }
        }
        throw new AssertionError(
                "child " + process.pid() + " printed nothing within " + seconds + " s (stderr in " + stderr + ")");
    }

    /** @return the next line the child prints within {@code seconds}, or null if it prints none (and still runs) */
    String lineOrNull(long seconds) throws InterruptedException {
        String line = lines.poll(seconds, TimeUnit.SECONDS);
        if (line == null && !process.isAlive()) {
            throw new AssertionError(
                    "child " + process.pid() + " exited with " + process.exitValue() + " (stderr in " + stderr + ")");
        }
        return line;
    }

    void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /** Sends {@code kill -<signal>} to the child: {@code STOP}, {@code CONT}. */
    void signal(String signal) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(pid()))
                .inheritIO()
                .start()
                .waitFor();
        if (exit != 0) {
            throw new AssertionError("kill -" + signal + " " + pid() + " exited with " + exit);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            if (process.isAlive()) {
                // A stopped process may not die of SIGKILL before it is continued on some systems; it may exit
                // meanwhile.
                new ProcessBuilder("kill", "-CONT", Long.toString(pid()))
                        .start()
                        .waitFor();
                process.destroyForcibly();
            }
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
