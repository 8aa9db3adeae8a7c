package dev.baton.impl.testing;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * A store shared by the processes of this machine, for tests with child JVMs: the locks live in one file,
 * read and rewritten under an exclusive OS file lock (and a lock of this JVM: OS file locks are per
 * process), so each operation is atomic across processes. Expiry is by the wall clock, which the
 * processes of one machine share. Every call is appended to a journal file inside the same critical
 * section, so the journal's order is the order in which the store decided.
 */
public final class FileLockStore implements LockStore {

    private static final ReentrantLock IN_THIS_JVM = new ReentrantLock();

    private record Entry(String owner, long expiresAtMillis) {}

    private final Path data;
    private final Path journal;
    private volatile boolean closed;

    /**
     * @param data the file the locks live in (created when missing)
     * @param journal the file each call is appended to
     */
    public FileLockStore(Path data, Path journal) {
        this.data = data;
        this.journal = journal;
    }

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        String key = acquisition.key();
        String owner = acquisition.owner();
        long ttlMillis = acquisition.ttlMillis();
        return locked(
                "acquire",
                key,
                owner,
                (entries) -> {
                    long now = System.currentTimeMillis();
                    Entry current = entries.get(key);
                    if (current != null && current.expiresAtMillis() > now) {
                        return AcquireResult.notAcquired(current.expiresAtMillis() - now);
                    }
                    long token = Long.parseLong(entries.getOrDefault("#counter", new Entry("0", 0))
                                    .owner())
                            + 1;
                    entries.put("#counter", new Entry(Long.toString(token), 0));
                    entries.put(key, new Entry(owner, now + ttlMillis));
                    return AcquireResult.acquired(token);
                },
                AcquireResult::isAcquired);
    }

    @Override
    public boolean renew(Renewal renewal) {
        String key = renewal.key();
        String owner = renewal.owner();
        long ttlMillis = renewal.ttlMillis();
        return locked(
                "renew",
                key,
                owner,
                (entries) -> {
                    long now = System.currentTimeMillis();
                    Entry current = entries.get(key);
                    if (current == null || !current.owner().equals(owner) || current.expiresAtMillis() <= now) {
                        return false;
                    }
                    entries.put(key, new Entry(owner, now + ttlMillis));
                    return true;
                },
                b -> b);
    }

    @Override
    public boolean release(String key, String owner) {
        return locked(
                "release",
                key,
                owner,
                (entries) -> {
                    Entry current = entries.get(key);
                    if (current == null
                            || !current.owner().equals(owner)
                            || current.expiresAtMillis() <= System.currentTimeMillis()) {
                        return false;
                    }
                    entries.remove(key);
                    return true;
                },
                b -> b);
    }

    @Override
    public void close() {
        closed = true;
    }

    /**
     * Appends a line to a journal file (not in any critical section).
     *
     * @param journal the file
     * @param line the line, without its end
     */
    public static void append(Path journal, String line) {
        try {
            Files.writeString(
                    journal,
                    line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> T locked(
            String operation,
            String key,
            String owner,
            Function<Map<String, Entry>, T> change,
            Function<T, Boolean> outcome) {
        if (closed) {
            throw new LockStoreException("the file store is closed");
        }
        IN_THIS_JVM.lock();
        try (FileChannel channel = FileChannel.open(
                        data, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            Map<String, Entry> entries = read(channel);
            T result = change.apply(entries);
            write(channel, entries);
            append(
                    journal,
                    String.join(
                            " ", operation, key, owner, outcome.apply(result).toString()));
            return result;
        } catch (IOException e) {
            throw new LockStoreException("the file store failed: " + e, e);
        } finally {
            IN_THIS_JVM.unlock();
        }
    }

    private static Map<String, Entry> read(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) >= 0) {
            // read it all
        }
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (String line : new String(buffer.array(), StandardCharsets.UTF_8).split("\n")) {
            String[] field = line.split("\t");
            if (field.length == 3) {
                entries.put(field[0], new Entry(field[1], Long.parseLong(field[2])));
            }
        }
        return entries;
    }

    private static void write(FileChannel channel, Map<String, Entry> entries) throws IOException {
        StringBuilder text = new StringBuilder();
        entries.forEach((key, entry) -> text.append(key)
                .append('\t')
                .append(entry.owner())
                .append('\t')
                .append(entry.expiresAtMillis())
                .append('\n'));
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(bytes), 0);
    }

    @Override
    public String toString() {
        return "file " + data;
    }
}
