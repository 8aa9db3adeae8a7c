package dev.baton.impl.store.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the process that took a lock may still run, for a key whose liveness regions are free in both of its
 * files. Free regions mean that the holder's process is gone, or that something inside it closed a descriptor of
 * both files: POSIX drops all of a process's record locks on a file at any close of it, so a backup agent reading
 * the directory in the holder's JVM frees the regions of a process that still runs and still believes it holds
 * its keys. The operating system's process table tells the two apart.
 *
 * <p>Process ids mean something only within one PID namespace (containers on one machine sharing a directory
 * have one each), so a record names its holder's namespace too. A holder of another namespace cannot be looked
 * up here: it keeps its key until its lease ends, as on a store without liveness. A record without a namespace
 * (written by an older version) is judged by its regions alone, as that version did.
 */
final class HolderProcesses {

    /** This JVM's PID namespace, e.g. {@code pid:[4026531836]} on Linux; {@code -} where there is none to read. */
    static final String NAMESPACE = namespace();

    private HolderProcesses() {}

    /**
     * @param record a live lease whose holder's regions are free
     * @return whether the holder's process may still run, so that its lease must run out before the key is free
     */
    static boolean mayRun(LockRecord record) {
        if (record.pidNamespace() == null) {
            return false; // an older version's record: its free regions say its process is gone
        }
        if (!record.pidNamespace().equals(NAMESPACE)) {
            return true; // its process id names no process here: the lease decides
        }
        return ProcessHandle.of(record.pid()).map(ProcessHandle::isAlive).orElse(false);
    }

    private static String namespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return "-";
        }
    }
}
