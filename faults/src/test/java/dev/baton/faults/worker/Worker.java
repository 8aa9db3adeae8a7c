package dev.baton.faults.worker;

import static dev.baton.faults.history.Vocabulary.ELECTION;
import static dev.baton.faults.history.Vocabulary.ERROR;
import static dev.baton.faults.history.Vocabulary.FAIL;
import static dev.baton.faults.history.Vocabulary.FAIRNESS_KEY;
import static dev.baton.faults.history.Vocabulary.HICCUP;
import static dev.baton.faults.history.Vocabulary.LEADER_KEY;
import static dev.baton.faults.history.Vocabulary.LEADER_THREAD;
import static dev.baton.faults.history.Vocabulary.PERMIT;
import static dev.baton.faults.history.Vocabulary.PERMIT_KEY;
import static dev.baton.faults.history.Vocabulary.READ;
import static dev.baton.faults.history.Vocabulary.READ_FILES;
import static dev.baton.faults.history.Vocabulary.RW_KEY;
import static dev.baton.faults.history.Vocabulary.START;
import static dev.baton.faults.history.Vocabulary.STOPPED;
import static dev.baton.faults.history.Vocabulary.TERM;
import static dev.baton.faults.history.Vocabulary.WRITE;

import dev.baton.Leadership;
import dev.baton.LockException;
import dev.baton.Locks;
import dev.baton.faults.history.HistoryWriter;
import jakarta.persistence.EntityManagerFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * A worker process: a Weld SE application that uses Baton as a user would, on the store its
 * {@code baton.*} system properties configure (read by MicroProfile Config: {@code baton.store=jpa} with the
 * application's {@link EntityManagerFactory} bean, {@code redis} or {@code file}), with its own tables in the
 * application's database, and records every critical section in its history
 * ({@code worker-<slot>-<pid>.hist}).
 *
 * <p>What it does is set by the control file, read every 100 ms: {@code fair} — one thread contends for
 * the key {@value dev.baton.faults.history.Vocabulary#FAIRNESS_KEY}; {@code faults} — several threads
 * take random keys, half through {@code @Synchronized}, half through {@link Locks#callWithLock}, and with
 * {@code faults.leadership=true} one more thread joins the election {@value dev.baton.faults.history.Vocabulary#ELECTION}
 * and acts while this process leads, and with {@code faults.shared=true} two more take shared leases (a permit of
 * {@value dev.baton.faults.history.Vocabulary#PERMIT_KEY}; {@value dev.baton.faults.history.Vocabulary#RW_KEY} for
 * reading or writing); {@code idle};
 * {@code stop} — finish the running sections, shut down and exit 0.
 */
public final class Worker {

    /** The threads of the shared mode: one takes a permit of the permit key, one the read/write key. */
    private static final String PERMIT_THREAD = "permit";

    private static final String RW_THREAD = "rw";

    private static WorkerSettings settings;
    private static CriticalSection section;
    private static HistoryWriter journal;

    private final HistoryWriter history;
    private final long pid = ProcessHandle.current().pid();
    private volatile String mode = "idle";

    private Worker(HistoryWriter history) {
        this.history = history;
    }

    static WorkerSettings settings() {
        return settings;
    }

    static CriticalSection section() {
        return section;
    }

    static HistoryWriter history() {
        return journal;
    }

    /**
     * Runs a worker until the control file says {@code stop} (or the JVM is told to exit).
     *
     * @param args none
     */
    public static void main(String[] args) {
        settings = WorkerSettings.fromSystemProperties();
        // never outlive the suite (a killed Maven build must not leave workers behind)
        ProcessHandle.current()
                .parent()
                .ifPresent(parent ->
                        parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
        long pid = ProcessHandle.current().pid();
        HistoryWriter history =
                new HistoryWriter(settings.dir().resolve("worker-" + settings.slot() + "-" + pid + ".hist"));
        journal = history;
        Worker worker = new Worker(history);
        Weld weld = new Weld(); // discovers Persistence, SynchronizedWork, SharedWork (META-INF/beans.xml, annotated)
        if (!settings.shared()) {
            weld.addExtension(new SharedWork.LeftOut());
        }
        try (WeldContainer container = weld.initialize()) {
            Locks locks = container.select(Locks.class).get();
            SynchronizedWork sync = container.select(SynchronizedWork.class).get();
            SharedWork shared =
                    settings.shared() ? container.select(SharedWork.class).get() : null;
            section = new CriticalSection(
                    history,
                    container.select(EntityManagerFactory.class).get(),
                    settings.pauseMillis(),
                    settings.fencedWrites());
            // Connect the store (and check its schema) before reporting ready, as a warmed-up application
            // would be: otherwise every worker's first acquisition of the fairness phase waits for the
            // others' cold starts, and those waits say nothing about fairness.
            warmUp(locks, pid);
            history.write(START, "pid", pid, "slot", settings.slot(), "ttl", System.getProperty("baton.ttl", ""));
            worker.run(locks, sync, shared);
        }
        history.write(STOPPED, "pid", pid);
        System.exit(0);
    }

    /** The first acquisition connects; a store still starting (or a loaded machine) may need another try. */
    private static void warmUp(Locks locks, long pid) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try {
                locks.callWithLock("warm-up:" + pid, lock -> lock.fencingToken());
                return;
            } catch (dev.baton.LockStoreException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                sleep(500);
            }
        }
    }

    private void run(Locks locks, SynchronizedWork sync, SharedWork shared) {
        List<Thread> threads = new ArrayList<>();
        Attempt exclusive = exclusive(locks, sync);
        threads.add(new Thread(() -> loop("fair", () -> FAIRNESS_KEY, exclusive), "fair"));
        for (int i = 0; i < settings.threads(); i++) {
            threads.add(new Thread(
                    () -> loop(
                            "faults",
                            () -> settings.keys()
                                    .get(ThreadLocalRandom.current()
                                            .nextInt(settings.keys().size())),
                            exclusive),
                    "t" + i));
        }
        if (settings.leadership()) {
            threads.add(new Thread(() -> lead(locks), LEADER_THREAD));
        }
        if (shared != null) {
            Attempt hold = shared(locks, shared);
            threads.add(new Thread(() -> loop("faults", () -> PERMIT_KEY, hold), PERMIT_THREAD));
            threads.add(new Thread(() -> loop("faults", () -> RW_KEY, hold), RW_THREAD));
        }
        Thread hiccups = new Thread(this::watchHiccups, "hiccups");
        hiccups.setDaemon(true);
        hiccups.start();
        // An application's graceful stop: on SIGTERM, take no new work and give running work a moment.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            history.write(TERM, "pid", pid);
                            mode = "stop";
                            long deadline = System.nanoTime() + settings.drainMillis() * 1_000_000;
                            for (Thread t : threads) {
                                try {
                                    t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }
                        },
                        "worker-drain"));
        threads.forEach(t -> {
            t.setDaemon(true); // the JVM may exit with work still running, as an application's would
            t.start();
        });
        while (!"stop".equals(mode)) {
            readControl();
            readLockFilesWhenAsked();
            sleep(100);
        }
        for (Thread t : threads) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void readControl() {
        try {
            String read = new String(Files.readAllBytes(settings.control()), StandardCharsets.UTF_8).strip();
            if (!read.isEmpty() && !"stop".equals(mode)) {
                mode = read;
            }
        } catch (IOException e) {
            // being rewritten: next time
        }
    }

    /**
     * The {@code reader} fault: while the nemesis leaves {@code read-<pid>} in the run directory, read the
     * lock files of the file store's directory (open, read, close) every 100 ms, from this JVM, as a diagnostic
     * page or log shipper inside the application would; with {@code faults.file.reader=all} every file, the
     * companion {@code .live} files too, as a backup agent would.
     */
    private void readLockFilesWhenAsked() {
        java.nio.file.Path ask = settings.dir().resolve("read-" + pid);
        if (settings.lockFiles().isEmpty() || !Files.exists(ask)) {
            return;
        }
        int read = 0;
        try (java.util.stream.Stream<java.nio.file.Path> files =
                Files.list(settings.lockFiles().get())) {
            boolean all = "all".equals(System.getProperty("faults.file.reader"));
            for (java.nio.file.Path f : files.filter(Files::isRegularFile)
                    .filter(f -> all || !f.getFileName().toString().endsWith(".live"))
                    .toList()) {
                try {
                    Files.readAllBytes(f);
                    read++;
                } catch (IOException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            // next time
        }
        history.write(READ_FILES, "pid", pid, "files", read);
    }

    /** One acquisition and its section, through {@code @Synchronized} or through {@link Locks}. */
    @FunctionalInterface
    private interface Attempt {
        void run(String key, long requested, boolean annotated);
    }

    /**
     * Takes a key from {@code nextKey}, again and again while the control file says {@code phase}: half of the time
     * through {@code @Synchronized}, half through {@link Locks}; records a failed acquisition and rests a little
     * between two.
     */
    private void loop(String phase, Supplier<String> nextKey, Attempt attempt) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (true) {
            String now = mode;
            if ("stop".equals(now)) {
                return;
            }
            if (!phase.equals(now)) {
                sleep(50);
                continue;
            }
            String key = nextKey.get();
            long requested = System.nanoTime();
            try {
                attempt.run(key, requested, random.nextBoolean());
            } catch (LockException e) {
                failed(Thread.currentThread().getName(), key, requested, e);
                if (e instanceof dev.baton.LockStoreException) {
                    sleep(100); // the database is away: do not spin
                }
            } catch (RuntimeException | Error e) {
                failed(Thread.currentThread().getName(), key, requested, e);
            }
            sleep(random.nextLong(settings.thinkMillis() + 1));
        }
    }

    /** A critical section: the unfenced counter around a protected write (see {@link CriticalSection}). */
    private static Attempt exclusive(Locks locks, SynchronizedWork sync) {
        return (key, requested, annotated) -> {
            if (annotated) {
                sync.run(key, requested);
            } else {
                locks.callWithLock(key, lock -> {
                    section.run(lock, key, requested, "call");
                    return null;
                });
            }
        };
    }

    /**
     * A section of the shared mode: one of the permits of the permit key; or the read/write key, for reading four
     * times in five, else for writing.
     */
    private static Attempt shared(Locks locks, SharedWork sync) {
        return (key, requested, annotated) -> {
            String how = PERMIT_KEY.equals(key)
                    ? PERMIT
                    : ThreadLocalRandom.current().nextInt(5) == 0 ? WRITE : READ;
            if (!annotated) {
                locks.callWithLock(key, SharedWork.options(how), lock -> {
                    section.runShared(lock, key, how, requested, "call");
                    return null;
                });
            } else if (PERMIT.equals(how)) {
                sync.permit(requested);
            } else if (READ.equals(how)) {
                sync.read(requested);
            } else {
                sync.write(requested); // each through the bean's proxy, so that its interceptor runs
            }
        };
    }

    /** Writes a failed acquisition (a documented {@link LockException}) or anything else Baton threw. */
    private void failed(String thread, String key, long requested, Throwable e) {
        boolean documented = e instanceof LockException;
        history.write(
                documented ? FAIL : ERROR,
                "pid",
                pid,
                "thr",
                thread,
                "key",
                key,
                "req",
                requested,
                "ex",
                documented ? e.getClass().getSimpleName() : e.getClass().getName(),
                "msg",
                documented ? String.valueOf(e.getMessage()) : CriticalSection.describe(e));
    }

    /**
     * Leadership mode, in the fault phase: join the run's election and, while this process leads, act as its
     * leader (see {@link CriticalSection#runAsLeader}); between terms wait for the next grant. The candidacy
     * is left to the application's shutdown, which ends the term before the lock is released.
     */
    private void lead(Locks locks) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Leadership leadership = null;
        while (true) {
            String now = mode;
            if ("stop".equals(now)) {
                return;
            }
            if (!"faults".equals(now)) {
                sleep(50);
                continue;
            }
            long requested = System.nanoTime();
            try {
                if (leadership == null) {
                    leadership = locks.lead(ELECTION);
                }
                if (section.runAsLeader(leadership, LEADER_KEY)) {
                    sleep(random.nextLong(settings.thinkMillis() + 1));
                } else {
                    awaitGrant(leadership);
                }
            } catch (RuntimeException | Error e) {
                failed(LEADER_THREAD, LEADER_KEY, requested, e);
                sleep(100);
            }
        }
    }

    /** Stands by: returns at the next grant, or after 100 ms so that a change of mode is seen. */
    private static void awaitGrant(Leadership leadership) {
        try {
            leadership.whenGranted().toCompletableFuture().get(100, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // still standing by
        } catch (ExecutionException e) {
            sleep(100); // the candidacy was closed: the application is stopping
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Notices when this process did not run (SIGSTOP, a long GC, an overloaded machine). */
    private void watchHiccups() {
        final long tick = 20;
        while (true) {
            long before = System.nanoTime();
            sleep(tick);
            long late = (System.nanoTime() - before) / 1_000_000 - tick;
            if (late >= 100) {
                history.write(HICCUP, "pid", pid, "ms", late);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
