package dev.baton.impl.store.file;

import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * The TCK's store properties on {@link FileLockStore}: each sequence on a new instance on the same directory. The
 * store keeps the wall clock, so every lease and turn outlives its sequence (the contract suite checks expiry).
 */
class FileStorePropertiesTest extends StoreProperties {

    static Path directory;

    @BeforeAll
    static void directory() throws IOException {
        directory = Files.createDirectories(Path.of("target", "file-store-properties"));
    }

    @Override
    protected LockStore createStore() {
        return new FileLockStore(directory);
    }
}
