package dev.baton.tck.runtime.shared;

import dev.baton.LockType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts, per section, the readers and writers inside at the same moment: the most readers there ever were
 * together, and how often anyone was inside beside a writer (which a read/write lock never allows), with the
 * order in which they came in.
 */
@ApplicationScoped
public class ReadWriteProbe {

    /** One section's counts, changed and read under its own monitor. */
    private static final class Section {
        int readers;
        int writers;
        int readerCalls;
        int writerCalls;
        int mostReaders;
        int besideWriter;
        final List<String> order = new ArrayList<>();

        synchronized void enter(LockType type) {
            if (type == LockType.READ) {
                readers++;
                readerCalls++;
                mostReaders = Math.max(mostReaders, readers);
            } else {
                writers++;
                writerCalls++;
            }
            // a writer that found anyone inside, or anyone who found a writer inside
            if (writers > 0 && readers + writers > 1) {
                besideWriter++;
            }
            order.add(type == LockType.READ ? "read" : "write");
        }

        synchronized void leave(LockType type) {
            if (type == LockType.READ) {
                readers--;
            } else {
                writers--;
            }
        }

        synchronized String stats() {
            return "readers=" + readerCalls + ",writers=" + writerCalls + ",mostReaders=" + mostReaders
                    + ",besideWriter=" + besideWriter + ",order=" + String.join(",", order);
        }
    }

    private final Map<String, Section> sections = new ConcurrentHashMap<>();

    /** Enters {@code name} as a {@code type}, stays {@code millis} (so that unprotected callers overlap), leaves. */
    public void hold(String name, LockType type, long millis) {
        enter(name, type);
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            leave(name, type);
        }
    }

    /** Enters {@code name} as a {@code type}; {@link #leave} ends the stay. */
    public void enter(String name, LockType type) {
        section(name).enter(type);
    }

    /** Leaves {@code name}, entered as a {@code type}. */
    public void leave(String name, LockType type) {
        section(name).leave(type);
    }

    /**
     * {@code readers=<calls>,writers=<calls>,mostReaders=<m>,besideWriter=<times>,order=<who came in>} for the section
     * {@code name}, the order a list of {@code read} and {@code write} separated by commas.
     */
    public String stats(String name) {
        return section(name).stats();
    }

    private Section section(String name) {
        return sections.computeIfAbsent(name, k -> new Section());
    }
}
