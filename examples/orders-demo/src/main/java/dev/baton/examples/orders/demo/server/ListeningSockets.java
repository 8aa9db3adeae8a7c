package dev.baton.examples.orders.demo.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The TCP addresses a running process (and its descendants) listens on, read from Linux's {@code /proc}:
 * the socket inodes among the process's open files, matched with the listening sockets of
 * {@code /proc/net/tcp} and {@code tcp6}. Tests use it to prove that a server they started accepts
 * connections on the loopback interface only, whatever ports it chose by itself (a data grid, a
 * management port), which connecting to a known port cannot show.
 */
public final class ListeningSockets {

    private static final Path PROC = Path.of("/proc");
    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    /** @return whether this machine has the {@code /proc} files read here (Linux) */
    public static boolean supported() {
        return Files.isReadable(PROC.resolve("net/tcp")) && Files.isDirectory(PROC.resolve("self/fd"));
    }

    /**
     * The addresses the process and its descendants listen on.
     *
     * @param process a running process of this user
     * @return its listening addresses (a wildcard address for "every interface")
     * @throws IllegalStateException if this machine has no {@code /proc} to read
     */
    public static List<InetSocketAddress> of(ProcessHandle process) {
        if (!supported()) {
            throw new IllegalStateException("listening sockets are read from /proc/net/tcp, which this machine lacks");
        }
        Map<String, InetSocketAddress> listeningByInode = new HashMap<>();
        readTable(PROC.resolve("net/tcp"), listeningByInode);
        readTable(PROC.resolve("net/tcp6"), listeningByInode);
        List<InetSocketAddress> addresses = new ArrayList<>();
        Stream.concat(Stream.of(process), process.descendants()).forEach(each -> {
            for (String inode : socketInodes(each.pid())) {
                InetSocketAddress address = listeningByInode.get(inode);
                if (address != null) {
                    addresses.add(address);
                }
            }
        });
        return addresses;
    }

    /**
     * The addresses of {@link #of(ProcessHandle)} that are not on the loopback interface.
     *
     * @param process a running process of this user
     * @return the addresses other machines could connect to; empty if it listens on loopback only
     */
    public static List<InetSocketAddress> notOnLoopback(ProcessHandle process) {
        return of(process).stream()
                .filter(address -> !address.getAddress().isLoopbackAddress())
                .toList();
    }

    private static List<String> socketInodes(long pid) {
        List<String> inodes = new ArrayList<>();
        try (Stream<Path> files = Files.list(PROC.resolve(Long.toString(pid)).resolve("fd"))) {
            files.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the file was closed between listing and reading: not a listening socket now
                }
            });
        } catch (NoSuchFileException exited) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the open files of process " + pid, e);
        }
        return inodes;
    }

    /** Rows: {@code sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...}. */
    private static void readTable(Path table, Map<String, InetSocketAddress> listeningByInode) {
        if (!Files.isReadable(table)) {
            return; // no IPv6 on this machine
        }
        try {
            List<String> rows = Files.readAllLines(table);
            for (String row : rows.subList(1, rows.size())) {
                String[] columns = row.trim().split("\\s+");
                if (columns.length > 9 && LISTEN.equals(columns[3])) {
                    listeningByInode.put(columns[9], address(columns[1]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + table, e);
        }
    }

    /** {@code 0100007F:1F90} is 127.0.0.1:8080: each 32-bit word of the address in host (little-endian) order. */
    static InetSocketAddress address(String hex) {
        String[] parts = hex.split(":");
        String word = parts[0];
        byte[] bytes = new byte[word.length() / 2];
        for (int w = 0; w < bytes.length / 4; w++) {
            for (int b = 0; b < 4; b++) {
                int at = (w * 4 + (3 - b)) * 2;
                bytes[w * 4 + b] = (byte) Integer.parseInt(word.substring(at, at + 2), 16);
            }
        }
        try {
            return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + hex, e);
        }
    }
}
