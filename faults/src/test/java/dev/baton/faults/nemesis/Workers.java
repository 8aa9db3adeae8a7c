package dev.baton.faults.nemesis;

import static dev.baton.faults.history.Vocabulary.DIED;
import static dev.baton.faults.history.Vocabulary.HUNG;
import static dev.baton.faults.history.Vocabulary.SPAWN;

import dev.baton.faults.db.Processes;
import dev.baton.faults.history.HistoryWriter;
import dev.baton.faults.proxy.FaultProxy;
import dev.baton.faults.store.StoreUnderTest;
import dev.baton.faults.worker.Worker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The worker processes: N slots, each with its proxy to the store's server; a worker that exits while the run goes on is
 * replaced, so N stay alive. Every start and exit goes to the nemesis's history.
 */
final class Workers implements AutoCloseable {

    private static final long HUNG_AFTER_MILLIS = 30_000;

    private final StoreUnderTest store;
    private final RunSettings settings;
    private final Path dir;
    private final Path control;
    private final HistoryWriter log;
    private final boolean shared;
    private final List<WorkerSlot> slots = new ArrayList<>();
    private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "worker-restarts");
        t.setDaemon(true);
        return t;
    });
    private final Set<Long> reportedHung = new HashSet<>();
    private volatile boolean restarting;
    private volatile boolean stopping;

    /**
     * @param shared whether the workers run the shared mode (the run asks for it and the store declares
     *     {@code SHARED_LOCKS})
     */
    Workers(StoreUnderTest store, RunSettings settings, Path dir, HistoryWriter log, boolean shared) {
        this.store = store;
        this.settings = settings;
        this.dir = dir;
        this.control = dir.resolve("control");
        this.log = log;
        this.shared = shared;
        control("idle");
    }

    /** Starts N workers, each behind a proxy of its own. */
    void startAll() throws IOException {
        for (int i = 0; i < settings.workers(); i++) {
            List<FaultProxy> proxies = new ArrayList<>();
            for (int target : store.proxyTargets()) {
                proxies.add(new FaultProxy(target));
            }
            WorkerSlot slot = new WorkerSlot(i, proxies);
            slots.add(slot);
            spawn(slot);
        }
    }

    List<WorkerSlot> slots() {
        return slots;
    }

    /** @param on whether a worker that exits is replaced */
    void restarting(boolean on) {
        restarting = on;
    }

    /**
     * Tells every worker what to do.
     *
     * @param mode {@code idle}, {@code fair}, {@code faults} or {@code stop}
     */
    void control(String mode) {
        try {
            Path next = dir.resolve("control.next");
            Files.writeString(next, mode, StandardCharsets.UTF_8);
            Files.move(next, control, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + control, e);
        }
    }

    /** @return the pids of the live workers */
    Set<Long> alive() {
        return slots.stream().filter(WorkerSlot::alive).map(WorkerSlot::pid).collect(Collectors.toSet());
    }

    /** @return the slot whose current process is {@code pid} */
    WorkerSlot slotOf(long pid) {
        return slots.stream().filter(s -> s.pid() == pid).findFirst().orElse(null);
    }

    private synchronized void spawn(WorkerSlot slot) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx192m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xss512k",
                "-cp",
                System.getProperty("java.class.path"),
                "-Dorg.jboss.logging.provider=jdk",
                "-Dbaton.ttl=" + settings.ttlMillis() + "ms",
                "-Dbaton.timeout=10s",
                "-Dfaults.dir=" + dir.toAbsolutePath(),
                "-Dfaults.slot=" + slot.index,
                "-Dfaults.control=" + control.toAbsolutePath(),
                "-Dfaults.threads=" + settings.threads(),
                "-Dfaults.leadership=" + settings.leadership(),
                "-Dfaults.shared=" + shared));
        command.addAll(store.workerProperties(slot.index, slot.proxyPorts(), settings.ttlMillis()));
        String logging = System.getProperty("java.util.logging.config.file");
        if (logging != null) {
            command.add(3, "-Djava.util.logging.config.file=" + logging);
        }
        command.add(Worker.class.getName());
        Process p = slot.spawn(command, dir.resolve("worker-" + slot.index + ".log"));
        log.write(SPAWN, "slot", slot.index, "pid", p.pid());
        p.onExit().thenAccept(done -> exited(slot, done));
    }

    private void exited(WorkerSlot slot, Process done) {
        boolean expected = slot.exitExpected || stopping;
        log.write(DIED, "slot", slot.index, "pid", done.pid(), "code", done.exitValue(), "expected", expected);
        if (!expected) {
            System.out.println("  worker " + done.pid() + " (slot " + slot.index + ") exited by itself, code "
                    + done.exitValue() + ": see " + dir.resolve("worker-" + slot.index + ".log"));
        }
        if (restarting && !stopping && slot.process() == done) {
            restarts.schedule(
                    () -> {
                        try {
                            if (!stopping) {
                                spawn(slot);
                            }
                        } catch (IOException e) {
                            System.out.println("  cannot restart slot " + slot.index + ": " + e);
                        }
                    },
                    300,
                    TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Waits until every slot's current worker has written a line.
     *
     * @param tracker the histories
     * @param limit how long at most
     */
    void awaitStarted(HolderTracker tracker, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            tracker.poll();
            if (slots.stream().allMatch(s -> s.alive() && tracker.lastLine(s.pid()) != null)) {
                return;
            }
            Processes.sleep(200);
        }
        throw new IllegalStateException(
                "the workers did not all start within " + limit + ": see the worker-*.log files in " + dir);
    }

    /**
     * Reports workers that have written nothing for a long time while nothing was done to them.
     *
     * @param tracker the histories
     */
    void checkHung(HolderTracker tracker) {
        tracker.poll();
        long now = System.nanoTime();
        for (WorkerSlot slot : slots) {
            long pid = slot.pid();
            if (!slot.alive() || slot.silenced || reportedHung.contains(pid)) {
                continue;
            }
            Long last = tracker.lastLine(pid);
            long since = Math.max(last == null ? 0 : last, slot.spawnedAt);
            long silent = (now - since) / 1_000_000;
            if (silent > HUNG_AFTER_MILLIS) {
                reportedHung.add(pid);
                log.write(HUNG, "slot", slot.index, "pid", pid, "silentMs", silent);
                System.out.println("  worker " + pid + " (slot " + slot.index + ") silent for " + silent + " ms");
                threadDump(pid, slot.index);
            }
        }
    }

    private void threadDump(long pid, int slot) {
        try {
            new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "jcmd")
                                    .toString(),
                            Long.toString(pid),
                            "Thread.print")
                    .redirectErrorStream(true)
                    .redirectOutput(
                            dir.resolve("hung-" + slot + "-" + pid + ".txt").toFile())
                    .start()
                    .waitFor(20, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no dump: the hang is still reported
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Lets every worker finish its sections and exit, killing those that do not within the limit.
     *
     * @param limit how long to wait
     */
    void stopAll(Duration limit) {
        stopping = true;
        restarts.shutdownNow();
        control("stop");
        long deadline = System.nanoTime() + limit.toNanos();
        for (WorkerSlot slot : slots) {
            Process p = slot.process();
            if (p == null) {
                continue;
            }
            Processes.signal(p.pid(), "CONT"); // in case a pause is still on
            try {
                if (!p.waitFor(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS)) {
                    System.out.println("  worker " + p.pid() + " did not stop in time; killed");
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Processes.sleep(200); // the exit callbacks write their lines
    }

    @Override
    public void close() {
        stopping = true;
        restarts.shutdownNow();
        for (WorkerSlot slot : slots) {
            Process p = slot.process();
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
            slot.proxies.forEach(FaultProxy::close);
        }
    }
}
