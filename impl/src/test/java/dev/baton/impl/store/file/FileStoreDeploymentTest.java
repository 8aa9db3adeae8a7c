package dev.baton.impl.store.file;

import static dev.baton.impl.testing.Deployments.assertDeploymentFails;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/** {@code baton.store=file} in a deployment: the runtime finds the store, checks its directory, and its locks are in the files. */
class FileStoreDeploymentTest {

    /** A bean, so the deployment has something to deploy. */
    @ApplicationScoped
    public static class Anything {}

    @Test
    void withoutADirectoryTheDeploymentFailsNamingTheKey() {
        assertDeploymentFails(new String[] {"baton.store=file"}, Anything.class)
                .hasStackTraceContaining("baton.file.directory is required for baton.store=file");
    }

    @Test
    void locksOfTheApplicationAreHeldInTheDirectory() throws Exception {
        Path directory =
                Path.of("target", "file-store-deployment", UUID.randomUUID().toString(), "locks");
        TestConfig.install("baton.store=file", "baton.file.directory=" + directory);
        try (WeldContainer container = Deployments.weld(Anything.class).initialize()) {
            assertThat(directory).as("created at deployment").isDirectory();
            Locks locks = container.select(Locks.class).get();
            try (Lock lock = locks.acquire("order:7")) {
                assertThat(lock.fencingToken()).isPositive();
                assertThat(directory.resolve(LockFileNames.fileName("order:7"))).exists();
                assertThat(new FileLockStore(directory)
                                .acquire(Acquisition.of("order:7", "another-instance", 60_000))
                                .isAcquired())
                        .as("another store on the directory, while the application holds the key")
                        .isFalse();
            }
            assertThat(new FileLockStore(directory)
                            .acquire(Acquisition.of("order:7", "another-instance", 60_000))
                            .isAcquired())
                    .as("after the application released it")
                    .isTrue();
        } finally {
            TestConfig.uninstall();
        }
        assertThat(Files.readString(directory.resolve(FencingCounter.FILE_NAME)).trim())
                .isEqualTo("0000000000000000002");
    }
}
