package dev.baton.impl.store.file;

import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * The TCK's store contract on {@link FileLockStore}: every call a new store instance on the same directory
 * (under {@code target/}), as an application restart in this JVM would make one. The store declares
 * {@code PERSISTENT}, {@code REMAINING_LEASE} and {@code NUL_IN_KEYS}, so the persistence rules (restart,
 * two instances racing) run too.
 */
class FileStoreContractTest extends LockStoreContract {

    static Path directory;

    @BeforeAll
    static void directory() throws IOException {
        directory = Files.createDirectories(Path.of("target", "file-store-tck"));
    }

    @Override
    protected LockStore createStore() {
        return new FileLockStore(directory);
    }
}
