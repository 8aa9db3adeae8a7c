package dev.baton.impl.store.file;

import dev.baton.spi.LockStore;
import dev.baton.tck.properties.StoreProperties;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;

/**
 * The TCK's store properties on {@link FileLockStore}: each sequence on a new instance on the contract suite's
 * directory (each with keys of its own). The store keeps the wall clock, so every lease and turn outlives its
 * sequence (the contract suite checks expiry).
 */
// tag::properties[]
class FileStorePropertiesTest extends StoreProperties {

    @BeforeAll
    static void directory() throws IOException {
        FileStoreContractTest.directory();
    }

    @Override
    protected LockStore createStore() {
        return new FileLockStore(FileStoreContractTest.directory);
    }
}
// end::properties[]
