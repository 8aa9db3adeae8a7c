package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockStoreException;
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

        long token =
                new FileLockStore(directory).acquire("k", "owner-1", 60_000).fencingToken();

        assertThat(token).isEqualTo(1_000_001);
        assertThat(Files.readString(directory.resolve(FencingCounter.FILE_NAME)).trim())
                .isEqualTo("0000000000001000001");
    }

    @Test
    void aCounterThatIsNotANumberFailsTheAcquisitionAndIsNotReset() throws Exception {
        Path counter = Files.writeString(directory.resolve(FencingCounter.FILE_NAME), "garbage\n");
        FileLockStore store = new FileLockStore(directory);

        assertThatThrownBy(() -> store.acquire("k", "owner-1", 60_000))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining(counter.getFileName().toString())
                .hasMessageContaining("not a number");
        assertThat(Files.readString(counter))
                .as("the counter is left for a person to restore")
                .isEqualTo("garbage\n");
        Files.writeString(counter, "41\n");
        // The failed acquisition left no lock behind: the key is free, and the counter goes on from the restored value.
        assertThat(store.acquire("k", "owner-3", 60_000).fencingToken()).isEqualTo(42);
    }
}
