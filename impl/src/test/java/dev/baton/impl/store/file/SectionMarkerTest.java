package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Section markers found by a process that holds a lock file's OS lock: one of a live process keeps it out (that
 * process lost its OS lock inside the section: {@link FileStoreProcessesTest} forces that), one left behind by a
 * process that is gone, by this JVM or long ago is removed and the operation goes on at once.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@EnabledOnOs({OS.LINUX, OS.MAC})
class SectionMarkerTest {

    private Path directory;
    private FileLockStore store;
    private Process other;

    @BeforeEach
    void directory(TestInfo info) throws Exception {
        directory = Files.createDirectories(Path.of(
                        "target",
                        "section-markers",
                        info.getTestMethod().orElseThrow().getName() + "-" + UUID.randomUUID()))
                .toRealPath();
        store = new FileLockStore(directory);
    }

    @AfterEach
    void stopOther() throws Exception {
        if (other != null) {
            other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMarkerOfALiveProcessKeepsEveryOperationOutUntilItIsGone() throws Exception {
        String owner = owner();
        assertThat(store.acquire(Acquisition.of("busy", owner, 60_000)).isAcquired())
                .isTrue();
        other = new ProcessBuilder("sleep", "60").start();
        Path marker = mark("busy", marker(other.pid(), HolderProcesses.NAMESPACE, started(other.toHandle())));

        long start = System.nanoTime();
        AcquireResult refused = store.acquire(Acquisition.of("busy", owner(), 60_000, 300));
        assertThat(refused.isAcquired())
                .as("an acquisition while a live process's marker is there")
                .isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .as("ms the bounded acquisition waited")
                .isBetween(250L, 5_000L);
        assertThatThrownBy(() -> store.renew(new Renewal("busy", owner, 60_000, 300)))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("critical section");
        assertThat(marker).as("the live process's marker").exists();

        other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(store.renew(Renewal.of("busy", owner, 60_000)))
                .as("the holder's renewal once the marker's process is gone")
                .isTrue();
        assertThat(marker).as("the gone process's marker").doesNotExist();
        assertThat(store.release("busy", owner)).isTrue();
    }

    @Test
    void aMarkerOfAProcessThatIsGoneIsRemovedAtOnce() throws Exception {
        // A process that lives until its start time is read (one that exits at once may be gone before: no start
        // time to read, seen on a loaded machine), then is killed.
        Process gone = new ProcessBuilder("sleep", "60").start();
        long started = started(gone.toHandle());
        gone.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        Path marker = mark("k", marker(gone.pid(), HolderProcesses.NAMESPACE, started));

        assertAcquiredAtOnce("k");
        assertThat(marker).doesNotExist();
    }

    @Test
    void aMarkerOfAnotherProcessWithTheSameIdIsRemovedAtOnce() throws Exception {
        other = new ProcessBuilder("sleep", "60").start();
        mark("k", marker(other.pid(), HolderProcesses.NAMESPACE, started(other.toHandle()) - 60_000));

        assertAcquiredAtOnce("k");
    }

    @Test
    void aMarkerOfThisJvmIsLeftByAFailedRemovalAndRemoved() throws Exception {
        ProcessHandle self = ProcessHandle.current();
        mark("k", marker(self.pid(), HolderProcesses.NAMESPACE, started(self)));

        assertAcquiredAtOnce("k");
    }

    @Test
    void anOldMarkerIsRemovedWhateverItNames() throws Exception {
        other = new ProcessBuilder("sleep", "60").start();
        Path marker = mark("k", marker(other.pid(), HolderProcesses.NAMESPACE, started(other.toHandle())));
        Files.setLastModifiedTime(
                marker, FileTime.fromMillis(System.currentTimeMillis() - SectionMarker.STALE_MILLIS - 1_000));

        assertAcquiredAtOnce("k");
    }

    @Test
    void aMarkerThatCannotBeJudgedKeepsOperationsOutUntilItIsOld() throws Exception {
        Path marker = mark("k", "4242 pid:[1] 1\n"); // another PID namespace
        assertThat(store.acquire(Acquisition.of("k", owner(), 60_000, 100)).isAcquired())
                .as("an acquisition while a marker of another PID namespace is young")
                .isFalse();
        Files.write(marker, new byte[0]); // created, its content not yet written
        assertThat(store.acquire(Acquisition.of("k", owner(), 60_000, 100)).isAcquired())
                .as("an acquisition while an empty marker is young")
                .isFalse();

        Files.setLastModifiedTime(
                marker, FileTime.fromMillis(System.currentTimeMillis() - SectionMarker.STALE_MILLIS - 1_000));
        assertAcquiredAtOnce("k");
    }

    @Test
    void everyOperationLeavesNoMarker() throws Exception {
        String owner = owner();
        assertThat(store.acquire(Acquisition.of("k", owner, 60_000)).isAcquired())
                .isTrue();
        assertThat(store.renew(Renewal.of("k", owner, 60_000))).isTrue();
        assertThat(store.release("k", owner)).isTrue();
        try (var files = Files.list(directory)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .noneMatch(name -> name.endsWith(SectionMarker.SUFFIX));
        }
    }

    private void assertAcquiredAtOnce(String key) {
        long start = System.nanoTime();
        assertThat(store.acquire(Acquisition.of(key, owner(), 60_000, 5_000)).isAcquired())
                .as("an acquisition behind a marker left behind")
                .isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .as("ms it took (its bound: 5,000)")
                .isLessThan(4_000L);
    }

    private Path mark(String key, String content) throws Exception {
        Path marker = SectionMarker.of(directory.resolve(LockFileNames.fileName(key)));
        Files.writeString(marker, content, StandardCharsets.US_ASCII);
        return marker;
    }

    private static String marker(long pid, String namespace, long startedMillis) {
        return pid + " " + namespace + " " + startedMillis + "\n";
    }

    private static long started(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli).orElseThrow();
    }

    private static String owner() {
        return UUID.randomUUID().toString();
    }
}
