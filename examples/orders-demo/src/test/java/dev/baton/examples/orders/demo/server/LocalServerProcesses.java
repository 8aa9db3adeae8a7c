package dev.baton.examples.orders.demo.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What {@link WildFlyProcess} and {@link LibertyProcess} share: a server's own directory (emptied, copied
 * into), free ports on 127.0.0.1, the tail of its output, and stopping or killing the process it was started
 * as with whatever it started (a start script's JVM).
 */
final class LocalServerProcesses {

    private LocalServerProcesses() {}

    /** Stops the process tree: descendants (a script's JVM) first, a normal shutdown; forced after 60 s each. */
    static void stop(Process process) {
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                handle.destroyForcibly();
            }
        }
    }

    /**
     * Kills the process tree at once (SIGKILL, as {@link Process#destroyForcibly()}), descendants first: no
     * shutdown, no lock released, as in a crash. Returns once all have exited.
     *
     * @param what the server, for the messages
     * @throws IllegalStateException if one has not exited 30 s after the signal
     */
    static void kill(Process process, String what) {
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        for (ProcessHandle handle : all) {
            handle.destroyForcibly();
            try {
                handle.onExit().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while killing " + what, e);
            } catch (Exception e) {
                throw new IllegalStateException(
                        "process " + handle.pid() + " of " + what + " did not exit when killed", e);
            }
        }
    }

    /** The last {@code lines} lines of a log file. */
    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** @return whether a server socket can be bound to {@code port} on the loopback address now */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
