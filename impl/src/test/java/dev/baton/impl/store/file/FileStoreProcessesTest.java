package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The file store across real processes: forked JVMs ({@link FileStoreChild}) on one directory under
 * {@code target/}. Exclusion is counted by the processes themselves in a probe file of their own, never
 * inferred from timing.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FileStoreProcessesTest {

    private Path directory;
    private Path logs;

    @BeforeEach
    void directory(TestInfo info) throws Exception {
        Path base = Path.of(
                "target",
                "file-store-processes",
                info.getTestMethod().orElseThrow().getName() + "-" + UUID.randomUUID());
        directory = Files.createDirectories(base.resolve("locks"));
        logs = base;
    }

    @Test
    void processesExcludeEachOtherOverManyRoundsAndTheirTokensKeepIncreasing() throws Exception {
        int processes = 3;
        int threads = 2;
        int rounds = 100;
        Path probe = Files.writeString(logs.resolve("probe"), "0 0\n");
        Path log = Files.createFile(logs.resolve("tokens"));
        List<ChildJvm> children = new ArrayList<>();
        List<String> ends = new ArrayList<>();
        try {
            for (int i = 0; i < processes; i++) {
                children.add(ChildJvm.start(
                        logs.resolve("child-" + i + ".err"),
                        "rounds",
                        directory.toString(),
                        "shared",
                        Integer.toString(rounds),
                        Integer.toString(threads),
                        probe.toString(),
                        log.toString()));
            }
            for (ChildJvm child : children) {
                assertThat(child.line(60)).isEqualTo("READY");
            }
            for (ChildJvm child : children) {
                child.send("go");
            }
            for (ChildJvm child : children) {
                ends.add(child.line(120));
            }
        } finally {
            for (ChildJvm child : children) {
                child.close();
            }
        }

        assertThat(Files.readString(probe).trim())
                .as("holders inside, overlaps seen")
                .isEqualTo("0 0");
        assertThat(ends).as("each child's end: how many of its releases failed").containsOnly("DONE 0");
        List<String> lines = Files.readAllLines(log, StandardCharsets.US_ASCII);
        assertThat(lines).hasSize(processes * threads * rounds);
        Map<String, Integer> perProcess = new HashMap<>();
        long previous = 0;
        for (String line : lines) {
            String[] fields = line.split(" ");
            long token = Long.parseLong(fields[0]);
            assertThat(token)
                    .as("token after %d, in the order the holders of all processes took the key", previous)
                    .isGreaterThan(previous);
            previous = token;
            perProcess.merge(fields[1], 1, Integer::sum);
        }
        assertThat(perProcess)
                .as("rounds per process")
                .hasSize(processes)
                .allSatisfy((pid, n) -> assertThat(n).isEqualTo(threads * rounds));
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC}) // destroyForcibly is SIGKILL there
    void killingTheHolderWithSigkillFreesItsKeyAtOnce() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        try (ChildJvm holder =
                ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), "order:42", "60000")) {
            long childToken = token(holder.line(60));
            refusedThenFreeAtOnceWhenKilled(store, holder, "order:42", childToken, "the live holder's key");
        }
    }

    /**
     * Another process is refused a live holder's key; once the holder is killed, the key with 58+ s of lease left
     * is taken within 2 s, with a greater token.
     */
    private void refusedThenFreeAtOnceWhenKilled(
            FileLockStore store, ChildJvm holder, String key, long childToken, String refusal) throws Exception {
        AcquireResult refused = store.acquire(Acquisition.of(key, owner(), 60_000));
        assertThat(refused.isAcquired()).as(refusal).isFalse();
        assertThat(refused.remainingLeaseMillis().orElseThrow())
                .as("the holder's remaining lease")
                .isGreaterThan(50_000);

        holder.process().destroyForcibly();
        assertThat(holder.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
        long killed = System.nanoTime();
        AcquireResult taken = awaitAcquired(store, key, 5_000);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed))
                .as("ms from the kill to the takeover of a key with 58+ s of lease left")
                .isLessThan(2_000);
        assertThat(taken.fencingToken()).isGreaterThan(childToken);
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC}) // SIGSTOP and SIGCONT
    void aHungHolderLosesItsKeyWhenItsLeaseRunsOut() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        long ttl = 3_000;
        try (ChildJvm holder = ChildJvm.start(
                logs.resolve("holder.err"), "hold", directory.toString(), "report", Long.toString(ttl))) {
            long childToken = token(holder.line(60));
            long acquiredBy = System.nanoTime(); // the child's lease began before it said so
            holder.signal("STOP");

            AcquireResult refused = store.acquire(Acquisition.of("report", owner(), 60_000));
            assertThat(refused.isAcquired())
                    .as("a stopped process is alive: its lease still holds the key")
                    .isFalse();
            AcquireResult taken = awaitAcquired(store, "report", ttl + 5_000);
            long afterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - acquiredBy);
            assertThat(afterMillis)
                    .as("ms from the stopped holder's acquisition to the takeover")
                    .isGreaterThanOrEqualTo(ttl - 1_000)
                    .isLessThan(ttl + 2_000);
            assertThat(taken.fencingToken()).isGreaterThan(childToken);

            holder.signal("CONT");
            holder.send("renew 60000");
            assertThat(holder.line(30)).as("the woken holder's renewal").isEqualTo("RENEW false");
            holder.send("release");
            assertThat(holder.line(30)).as("the woken holder's release").isEqualTo("RELEASE false");
            assertThat(store.acquire(Acquisition.of("report", owner(), 60_000)).isAcquired())
                    .as("the successor still holds it")
                    .isFalse();
        }
    }

    @Test
    void aReadOfTheLockFileInTheHoldersJvmDoesNotFreeItsKey() throws Exception {
        aReadInTheHoldersJvmDoesNotFreeItsKey("invoice:7", "");
    }

    @Test
    void aReadOfTheCompanionFileInTheHoldersJvmDoesNotFreeItsKey() throws Exception {
        aReadInTheHoldersJvmDoesNotFreeItsKey("invoice:8", SharedFile.COMPANION_SUFFIX);
    }

    /** The holder's JVM reads the key's lock file (suffix "") or its companion, closing a descriptor of it. */
    private void aReadInTheHoldersJvmDoesNotFreeItsKey(String key, String suffix) throws Exception {
        FileLockStore store = new FileLockStore(directory);
        try (ChildJvm holder = ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), key, "60000")) {
            token(holder.line(60));
            // Closing any descriptor of a file drops every POSIX lock the process holds on it.
            holder.send("read " + LockFileNames.fileName(key) + suffix);
            assertThat(holder.line(30)).as("the holder's JVM read the file").startsWith("READ ");

            AcquireResult refused = store.acquire(Acquisition.of(key, owner(), 60_000));
            assertThat(refused.isAcquired())
                    .as("another process, while the holder lives and its lease runs")
                    .isFalse();
            assertThat(refused.remainingLeaseMillis().orElseThrow())
                    .as("the holder's remaining lease")
                    .isGreaterThan(50_000);

            holder.send("renew 60000");
            assertThat(holder.line(30)).as("the holder's renewal").isEqualTo("RENEW true");
            assertThat(store.acquire(Acquisition.of(key, owner(), 60_000)).isAcquired())
                    .as("another process, after the holder's renewal")
                    .isFalse();
            holder.send("release");
            assertThat(holder.line(30)).as("the holder's release").isEqualTo("RELEASE true");
        }
        assertThat(store.acquire(Acquisition.of(key, owner(), 60_000)).isAcquired())
                .as("the released key")
                .isTrue();
    }

    @Test
    void aHolderReassertsItsLivenessAtItsRenewalAfterBothOfItsFilesWereRead() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        String file = LockFileNames.fileName("invoice:9");
        try (ChildJvm holder =
                ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), "invoice:9", "60000")) {
            token(holder.line(60));
            // What remains: a backup agent in the holder's JVM reading both files drops both regions until the
            // holder's next renewal takes them again.
            holder.send("read " + file);
            assertThat(holder.line(30)).startsWith("READ ");
            holder.send("read " + file + SharedFile.COMPANION_SUFFIX);
            assertThat(holder.line(30)).startsWith("READ ");

            holder.send("renew 60000");
            assertThat(holder.line(30)).as("the holder's renewal").isEqualTo("RENEW true");
            assertThat(store.acquire(Acquisition.of("invoice:9", owner(), 60_000))
                            .isAcquired())
                    .as("another process, after the holder's renewal took its regions again")
                    .isFalse();
        }
        assertThat(awaitAcquired(store, "invoice:9", 5_000).isAcquired())
                .as("the key of the holder that died after its renewal")
                .isTrue();
    }

    /**
     * A backup agent in the holder's JVM that reads the whole directory closes a descriptor of both of the key's
     * files, and the operating system drops both of the holder's regions: its process, still running, keeps the
     * key until its lease ends; once it is killed, the key is free at once.
     */
    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC}) // destroyForcibly is SIGKILL there
    void aReadOfBothFilesInTheHoldersJvmDoesNotFreeItsKeyWhileItsProcessRuns() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        String file = LockFileNames.fileName("invoice:10");
        try (ChildJvm holder =
                ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), "invoice:10", "60000")) {
            long childToken = token(holder.line(60));
            holder.send("read " + file);
            assertThat(holder.line(30)).startsWith("READ ");
            holder.send("read " + file + SharedFile.COMPANION_SUFFIX);
            assertThat(holder.line(30)).startsWith("READ ");

            refusedThenFreeAtOnceWhenKilled(
                    store,
                    holder,
                    "invoice:10",
                    childToken,
                    "another process, while the holder's process runs and its lease runs, both regions dropped");
        }
    }

    /**
     * A backup agent in this JVM reads both of a key's files while one of this JVM's acquisitions is inside the
     * key's critical section: the operating system drops the section's regions, and another process gets the OS
     * lock. It must still not come in beside the acquisition (both would find the key free and both take it):
     * it waits for the acquisition's section marker. The acquisition is held inside its section by holding the
     * fencing counter's lock of this JVM, which it needs there.
     */
    @Test
    void aReadOfBothFilesWhileThisJvmIsInsideTheCriticalSectionLetsNoOtherProcessIn() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        String key = "invoice:11";
        Path lockFile = directory.toRealPath().resolve(LockFileNames.fileName(key));
        assertThat(store.acquire(Acquisition.of("warm-up", owner(), 1_000)).isAcquired())
                .isTrue(); // creates the counter file
        try (ChildJvm other = ChildJvm.start(logs.resolve("other.err"), "try-when-asked", directory.toString(), key)) {
            assertThat(other.line(60)).isEqualTo("READY");
            SharedFile counter = SharedFiles.use(directory.toRealPath().resolve(FencingCounter.FILE_NAME));
            AtomicReference<AcquireResult> inside = new AtomicReference<>();
            Thread acquiring;
            counter.inThisJvm.lock();
            try {
                acquiring = new Thread(() -> inside.set(store.acquire(Acquisition.of(key, owner(), 60_000, 30_000))));
                acquiring.start();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!counter.inThisJvm.hasQueuedThread(acquiring)) {
                    assertThat(System.nanoTime())
                            .as("the acquisition waits inside its section")
                            .isLessThan(deadline);
                    Thread.sleep(1);
                }
                // Closing a descriptor of each file drops this process's regions in it: the section's too.
                Files.readAllBytes(lockFile);
                Files.readAllBytes(SharedFile.companion(lockFile));
                other.send("go");
                String early = other.lineOrNull(3);
                assertThat(early)
                        .as("the other process's acquisition while this JVM's is inside the section")
                        .isNull();
            } finally {
                counter.inThisJvm.unlock();
                SharedFiles.done(counter);
            }
            acquiring.join(30_000);
            assertThat(inside.get().isAcquired()).as("this JVM's acquisition").isTrue();
            assertThat(other.line(30))
                    .as("the other process's acquisition, once this JVM's left the section")
                    .isEqualTo("TRY false");
        }
    }

    @Test
    void aLockFileRemovedWhileThisJvmHoldsItsKeyIsLeftForTheNewOne() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        String old = owner();
        String taker = owner();
        assertThat(store.acquire(Acquisition.of("journal", old, 60_000)).isAcquired())
                .isTrue();
        Files.delete(directory.resolve(LockFileNames.fileName("journal")));

        assertThat(store.acquire(Acquisition.of("journal", taker, 60_000)).isAcquired())
                .as("an acquisition in this JVM, which finds the path naming a new, empty file")
                .isTrue();
        assertThat(store.renew(Renewal.of("journal", old, 60_000)))
                .as("the renewal of the lock in the removed file")
                .isFalse();
        try (ChildJvm other = ChildJvm.start(logs.resolve("other.err"), "try", directory.toString(), "journal")) {
            assertThat(other.line(60))
                    .as("another process, while this JVM holds the key in the new file")
                    .isEqualTo("TRY false");
        }
        assertThat(store.release("journal", taker)).isTrue();
    }

    @Test
    void aHolderWhoseLockFileWasRemovedLosesTheKeyAtItsRenewal() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        String taker = owner();
        try (ChildJvm holder =
                ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), "ledger", "60000")) {
            long childToken = token(holder.line(60));
            Files.delete(directory.resolve(LockFileNames.fileName("ledger")));

            AcquireResult taken = store.acquire(Acquisition.of("ledger", taker, 60_000));
            assertThat(taken.isAcquired())
                    .as("another process, on the new lock file of the same name")
                    .isTrue();
            assertThat(taken.fencingToken()).isGreaterThan(childToken);

            holder.send("renew 60000");
            assertThat(holder.line(30))
                    .as("the renewal of the holder whose lock file was removed")
                    .isEqualTo("RENEW false");
            holder.send("release");
            assertThat(holder.line(30))
                    .as("the release of the holder whose lock file was removed")
                    .isEqualTo("RELEASE false");
        }
        assertThat(store.renew(Renewal.of("ledger", taker, 60_000)))
                .as("the new holder's renewal")
                .isTrue();
        assertThat(store.release("ledger", taker)).isTrue();
    }

    @Test
    void interruptingCallersDoesNotDropTheLocksThisJvmHolds() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        String owner = owner();
        assertThat(store.acquire(Acquisition.of("busy", owner, 60_000)).isAcquired())
                .isTrue();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        List<RuntimeException> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread caller = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        store.acquire(Acquisition.of("busy", owner(), 60_000));
                        store.renew(Renewal.of("busy", owner(), 60_000));
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                    Thread.interrupted(); // keep calling whatever we were told
                    calls.incrementAndGet();
                }
            });
            caller.start();
            callers.add(caller);
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < until) { // interrupts land in the middle of reads, writes and lock calls
            callers.forEach(Thread::interrupt);
            Thread.onSpinWait();
        }
        stop.set(true);
        for (Thread caller : callers) {
            caller.join();
        }

        try (ChildJvm other = ChildJvm.start(logs.resolve("other.err"), "try", directory.toString(), "busy")) {
            assertThat(other.line(60))
                    .as("another process, while this JVM still holds the key")
                    .isEqualTo("TRY false");
        }
        assertThat(failures)
                .as("calls that failed because their thread was interrupted")
                .isEmpty();
        assertThat(calls.get()).as("calls made while being interrupted").isGreaterThan(100);
        assertThat(store.release("busy", owner)).isTrue();
    }

    @Test
    void aProcessStuckInsideTheCriticalSectionBoundsCallsInsteadOfHangingThem() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        String owner = owner();
        assertThat(store.acquire(Acquisition.of("stuck", owner, 60_000)).isAcquired())
                .isTrue();
        try (ChildJvm stuck = ChildJvm.start(logs.resolve("stuck.err"), "section", directory.toString(), "stuck")) {
            assertThat(stuck.line(60)).startsWith("IN ");

            long start = System.nanoTime();
            AcquireResult refused = store.acquire(Acquisition.of("stuck", owner(), 60_000, 300));
            long acquireMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(refused.isAcquired())
                    .as("an acquisition that could not get in within its bound")
                    .isFalse();
            assertThat(acquireMillis).as("ms the bounded acquisition took").isBetween(250L, 2_000L);

            assertThatThrownBy(() -> store.renew(new Renewal("stuck", owner, 60_000, 300)))
                    .isInstanceOf(dev.baton.LockStoreException.class)
                    .hasMessageContaining("critical section");
        }
        assertThat(store.renew(Renewal.of("stuck", owner, 60_000)))
                .as("the holder's renewal once the stuck process is gone")
                .isTrue();
        assertThat(store.release("stuck", owner)).isTrue();
    }

    private static AcquireResult awaitAcquired(FileLockStore store, String key, long withinMillis)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(withinMillis);
        while (true) {
            AcquireResult result = store.acquire(Acquisition.of(key, owner(), 60_000));
            if (result.isAcquired()) {
                return result;
            }
            assertThat(System.nanoTime())
                    .as("%s taken within %d ms", key, withinMillis)
                    .isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static long token(String line) {
        assertThat(line).startsWith("ACQUIRED ");
        return Long.parseLong(line.substring("ACQUIRED ".length()));
    }

    private static String owner() {
        return UUID.randomUUID().toString();
    }
}
