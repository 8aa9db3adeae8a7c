package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
import dev.baton.spi.Acquisition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fencing counter file: continued, never reset, never silently repaired. */
class FileStoreCounterTest {

    private Path directory;

    @BeforeEach
    void directory() throws Exception {
        directory = Files.createDirectories(
                Path.of("target", "file-store-counter", UUID.randomUUID().toString()));
    }

    @Test
    void tokensContinueFromTheCounterFile() throws Exception {
        Files.writeString(directory.resolve(FencingCounter.FILE_NAME), "1000000\n");

        long token = new FileLockStore(directory)
                .acquire(Acquisition.of("k", "owner-1", 60_000))
                .fencingToken();

        assertThat(token).isEqualTo(1_000_001);
        assertThat(Files.readString(directory.resolve(FencingCounter.FILE_NAME)).trim())
                .isEqualTo("0000000000001000001");
    }

    @Test
    void aCounterThatIsNotANumberFailsTheAcquisitionAndIsNotReset() throws Exception {
        Path counter = Files.writeString(directory.resolve(FencingCounter.FILE_NAME), "garbage\n");
        FileLockStore store = new FileLockStore(directory);

        assertThatThrownBy(() -> store.acquire(Acquisition.of("k", "owner-1", 60_000)))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining(counter.getFileName().toString())
                .hasMessageContaining("not a number");
        assertThat(Files.readString(counter))
                .as("the counter is left for a person to restore")
                .isEqualTo("garbage\n");
        Files.writeString(counter, "41\n");
        // The failed acquisition left no lock behind: the key is free, and the counter goes on from the restored value.
        assertThat(store.acquire(Acquisition.of("k", "owner-3", 60_000)).fencingToken())
                .isEqualTo(42);
    }

    @Test
    void removingTheCounterDoesNotSendTheTokensOfAReleasedKeyBack() throws Exception {
        Path counter = Files.writeString(directory.resolve(FencingCounter.FILE_NAME), "1000\n");
        FileLockStore store = new FileLockStore(directory);
        long first = store.acquire(Acquisition.of("k", "owner-1", 60_000)).fencingToken();
        assertThat(store.release("k", "owner-1")).isTrue();

        Files.delete(counter);

        assertThat(store.acquire(Acquisition.of("k", "owner-2", 60_000)).fencingToken())
                .as("the key's token after %d, the counter removed and the key's lock file kept", first)
                .isGreaterThan(first);
    }

    @Test
    void removingTheCounterDoesNotSendTheTokensOfAKeyWhoseLeaseRanOutBack() throws Exception {
        Path counter = Files.writeString(directory.resolve(FencingCounter.FILE_NAME), "1000\n");
        FileLockStore store = new FileLockStore(directory);
        long first = store.acquire(Acquisition.of("k", "owner-1", 1)).fencingToken();
        Thread.sleep(20);
        FileLockStore.sweep(); // this JVM lets go of the lapsed lock, as a restart would

        Files.delete(counter);

        assertThat(store.acquire(Acquisition.of("k", "owner-2", 60_000)).fencingToken())
                .as("the key's token after %d, the counter removed and the key's lock file kept", first)
                .isGreaterThan(first);
    }

    @Test
    void removingTheLockFilesWhileNoProcessUsesThemContinuesTokensFromTheCounter() throws Exception {
        Files.writeString(directory.resolve(FencingCounter.FILE_NAME), "1000\n");
        FileLockStore store = new FileLockStore(directory);
        long first = store.acquire(Acquisition.of("k", "owner-1", 60_000)).fencingToken();
        assertThat(store.release("k", "owner-1")).isTrue();

        try (var files = Files.list(directory)) {
            for (Path file : files.filter(f -> !f.getFileName().toString().equals(FencingCounter.FILE_NAME))
                    .toList()) {
                Files.delete(file);
            }
        }

        assertThat(store.acquire(Acquisition.of("k", "owner-2", 60_000)).fencingToken())
                .as("the key's token after %d, its lock file removed and the counter kept", first)
                .isGreaterThan(first);
    }
}
