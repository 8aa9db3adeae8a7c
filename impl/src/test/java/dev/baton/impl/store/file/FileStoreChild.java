package dev.baton.impl.store.file;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A process of the multi-process tests ({@link FileStoreProcessesTest}), driven by its arguments and stdin,
 * answering on stdout:
 * <ul>
 * <li>{@code rounds <dir> <key> <rounds> <threads> <probe> <log>}: prints {@code READY}, waits for a line on
 * stdin, then each thread takes the key {@code rounds} times; while holding it, it enters the probe (a file
 * counting, under an OS lock of its own, the holders inside and the overlaps seen) and appends
 * {@code <token> <pid>} to the log; prints {@code DONE <releases that answered false>}.</li>
 * <li>{@code hold <dir> <key> <ttl>}: takes the key, prints {@code ACQUIRED <token>}, then answers stdin lines
 * {@code renew <ttl>} ({@code RENEW true|false}), {@code release} ({@code RELEASE true|false}) and
 * {@code read <file name>} (reads that file of the directory with {@link Files#readAllBytes} in this JVM, as a
 * diagnostic page or a log shipper of the holder's application would; {@code READ <bytes>}) until EOF.</li>
 * <li>{@code try <dir> <key>}: one acquire; prints {@code TRY true|false}.</li>
 * <li>{@code try-when-asked <dir> <key>}: prints {@code READY}, waits for a line on stdin, then one acquire
 * bounded at 30 s; prints {@code TRY true|false}.</li>
 * <li>{@code section <dir> <key>}: takes the key file's critical section and keeps it; prints {@code IN}.</li>
 * </ul>
 */
public final class FileStoreChild {

    private FileStoreChild() {}

    public static void main(String[] args) throws Exception {
        FileLockStore store = new FileLockStore(Path.of(args[1]));
        switch (args[0]) {
            case "rounds" ->
                rounds(
                        store,
                        args[2],
                        Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]),
                        Path.of(args[5]),
                        Path.of(args[6]));
            case "hold" -> hold(store, Path.of(args[1]), args[2], Long.parseLong(args[3]));
            case "try" ->
                System.out.println("TRY "
                        + store.acquire(Acquisition.of(args[2], owner(), 60_000))
                                .isAcquired());
            case "try-when-asked" -> {
                store.acquire(Acquisition.of(args[2] + "-warm-up", owner(), 1_000)); // loads what the acquire uses
                System.out.println("READY");
                System.out.flush();
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                System.out.println("TRY "
                        + store.acquire(Acquisition.of(args[2], owner(), 60_000, 30_000))
                                .isAcquired());
            }
            case "section" -> section(Path.of(args[1]).resolve(LockFileNames.fileName(args[2])));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
    }

    private static void rounds(FileLockStore store, String key, int rounds, int threads, Path probe, Path log)
            throws Exception {
        System.out.println("READY");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        long pid = ProcessHandle.current().pid();
        try (FileChannel probeFile = FileChannel.open(probe, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileChannel logFile = FileChannel.open(log, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ReentrantLock probeInThisJvm = new ReentrantLock(); // OS locks are per process: one thread at a time
            List<Thread> workers = new ArrayList<>();
            List<Throwable> failures = new ArrayList<>();
            AtomicInteger failedReleases = new AtomicInteger();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    try {
                        for (int round = 0; round < rounds; round++) {
                            String owner = owner();
                            AcquireResult result;
                            while (!(result = store.acquire(Acquisition.of(key, owner, 10_000, 1_000))).isAcquired()) {
                                LockSupport.parkNanos(50_000);
                            }
                            count(probeFile, probeInThisJvm, +1);
                            logFile.write(ByteBuffer.wrap(
                                    (result.fencingToken() + " " + pid + "\n").getBytes(StandardCharsets.US_ASCII)));
                            LockSupport.parkNanos(200_000);
                            count(probeFile, probeInThisJvm, -1);
                            if (!store.release(
                                    key, owner)) { // counted, so the probe's overlaps are what the test reports
                                failedReleases.incrementAndGet();
                            }
                        }
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    }
                });
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            if (!failures.isEmpty()) {
                failures.get(0).printStackTrace();
                System.exit(2);
            }
            System.out.println("DONE " + failedReleases.get());
        }
    }

    /** Adds {@code delta} to the holders inside; entering while someone is inside counts an overlap. */
    private static void count(FileChannel probe, ReentrantLock inThisJvm, int delta) throws Exception {
        inThisJvm.lock();
        try (FileLock ignored = probe.lock()) {
            ByteBuffer buffer = ByteBuffer.allocate(64);
            probe.read(buffer, 0);
            String[] fields = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII)
                    .trim()
                    .split(" ");
            long inside = Long.parseLong(fields[0]);
            long overlaps = Long.parseLong(fields[1]);
            if (delta > 0 && inside > 0) {
                overlaps++;
            }
            probe.truncate(0);
            probe.write(
                    ByteBuffer.wrap(((inside + delta) + " " + overlaps + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        } finally {
            inThisJvm.unlock();
        }
    }

    private static void hold(FileLockStore store, Path directory, String key, long ttl) throws Exception {
        String owner = owner();
        AcquireResult result;
        while (!(result = store.acquire(Acquisition.of(key, owner, ttl))).isAcquired()) {
            LockSupport.parkNanos(1_000_000);
        }
        System.out.println("ACQUIRED " + result.fencingToken());
        System.out.flush();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            if (line.startsWith("renew ")) {
                System.out.println("RENEW " + store.renew(Renewal.of(key, owner, Long.parseLong(line.substring(6)))));
            } else if (line.equals("release")) {
                System.out.println("RELEASE " + store.release(key, owner));
            } else if (line.startsWith("read ")) {
                System.out.println("READ " + Files.readAllBytes(directory.resolve(line.substring(5))).length);
            }
            System.out.flush();
        }
    }

    /** Takes the file's critical section by hand and keeps it, like a process stopped inside an operation. */
    private static void section(Path file) throws Exception {
        try (FileChannel channel = FileChannel.open(
                        file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock section = channel.lock(SharedFile.MUTEX_POSITION, 1, false)) {
            System.out.println("IN " + section.position());
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the parent closes our stdin or kills us
            }
        }
    }

    private static String owner() {
        return UUID.randomUUID().toString();
    }
}
