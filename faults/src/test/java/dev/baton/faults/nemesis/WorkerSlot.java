package dev.baton.faults.nemesis;

import dev.baton.faults.proxy.FaultProxy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One of the N places a worker process runs in, with its own proxy to the database; a worker that dies
 * is replaced in the same slot.
 */
final class WorkerSlot {

    final int index;
    /** The first of {@link #proxies}: the only one but for a store on a cluster. */
    final FaultProxy proxy;
    /** One proxy per server the worker reaches (the members of a cluster), all cut off together. */
    final List<FaultProxy> proxies;

    private volatile Process process;
    /** Set before the nemesis signals the process, so its exit is not taken for a crash. */
    volatile boolean exitExpected;
    /** Set while the nemesis pauses or cuts off the process, so its silence is not taken for a hang. */
    volatile boolean silenced;

    volatile long spawnedAt;

    WorkerSlot(int index, List<FaultProxy> proxies) {
        this.index = index;
        this.proxies = List.copyOf(proxies);
        this.proxy = proxies.get(0);
    }

    /** @return the ports of its proxies */
    List<Integer> proxyPorts() {
        return proxies.stream().map(FaultProxy::port).toList();
    }

    Process process() {
        return process;
    }

    long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    boolean alive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /**
     * Starts a worker JVM in this slot.
     *
     * @param command the command (java, options, class)
     * @param log where its output goes
     * @return the process
     */
    Process spawn(List<String> command, Path log) throws IOException {
        exitExpected = false;
        silenced = false;
        Process p = new ProcessBuilder(new ArrayList<>(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        spawnedAt = System.nanoTime();
        process = p;
        return p;
    }
}
