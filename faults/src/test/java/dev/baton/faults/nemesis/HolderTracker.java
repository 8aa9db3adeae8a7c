package dev.baton.faults.nemesis;

import static dev.baton.faults.history.Vocabulary.ENTER;
import static dev.baton.faults.history.Vocabulary.EXIT;
import static dev.baton.faults.history.Vocabulary.GRANTED;
import static dev.baton.faults.history.Vocabulary.REVOKED;

import dev.baton.faults.history.Event;
import dev.baton.faults.history.HistoryReader;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Follows the workers' histories as they grow, to tell the nemesis who holds a lock of the critical sections' keys
 * right now (an {@code enter} without its {@code exit}; the shared mode's sections are left out) and how long each
 * worker has been silent.
 */
final class HolderTracker {

    /** An open critical section. */
    record Holder(long pid, String key, long token, long entered) {}

    private final Path dir;
    private final Map<Path, Long> offsets = new HashMap<>();
    private final Map<Long, Long> lastLine = new HashMap<>();
    private final Map<String, Holder> open = new LinkedHashMap<>();
    /** The process whose term began last and has not ended (0: none known). */
    private long leader;

    HolderTracker(Path dir) {
        this.dir = dir;
    }

    /** Reads what the histories gained since the last call. */
    synchronized void poll() {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("worker-")
                            && f.getFileName().toString().endsWith(".hist"))
                    .toList()) {
                readNew(file);
            }
        } catch (IOException e) {
            // next time
        }
    }

    private void readNew(Path file) throws IOException {
        long from = offsets.getOrDefault(file, 0L);
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= from) {
                return;
            }
            byte[] bytes = new byte[(int) Math.min(length - from, 64L * 1024 * 1024)];
            in.seek(from);
            in.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            int complete = text.lastIndexOf('\n') + 1; // keep a line still being written for next time
            offsets.put(file, from + text.substring(0, complete).getBytes(StandardCharsets.UTF_8).length);
            for (Event e : HistoryReader.parse(text.substring(0, complete))) {
                long pid = e.find("pid").map(Long::parseLong).orElse(-1L);
                lastLine.put(pid, e.nano());
                String id = pid + "|" + e.find("thr").orElse("") + "|"
                        + e.find("key").orElse("");
                if (GRANTED.equals(e.type())) {
                    leader = pid;
                } else if (REVOKED.equals(e.type()) && leader == pid) {
                    leader = 0;
                }
                if (ENTER.equals(e.type()) && e.find("mode").isPresent()) {
                    continue; // a shared-mode section: the faults aim at the holders of the exclusive keys, as before
                }
                if (ENTER.equals(e.type())) {
                    open.put(id, new Holder(pid, e.get("key"), e.getLong("tok"), e.nano()));
                } else if (EXIT.equals(e.type())) {
                    open.remove(id);
                }
            }
        }
    }

    /**
     * @param alive the pids of the live workers
     * @return the open sections of live workers, the most recent first
     */
    synchronized List<Holder> holders(java.util.Set<Long> alive) {
        List<Holder> holders = new ArrayList<>();
        open.values().stream().filter(h -> alive.contains(h.pid())).forEach(holders::add);
        holders.sort((a, b) -> Long.compare(b.entered(), a.entered()));
        return holders;
    }

    /**
     * @param alive the pids of the live workers
     * @return the live worker that leads the run's election, as far as its history tells
     */
    synchronized java.util.Optional<Long> leader(java.util.Set<Long> alive) {
        return leader != 0 && alive.contains(leader) ? java.util.Optional.of(leader) : java.util.Optional.empty();
    }

    /**
     * @param pid a worker
     * @return the time of its last line, if any
     */
    synchronized Long lastLine(long pid) {
        return lastLine.get(pid);
    }
}
