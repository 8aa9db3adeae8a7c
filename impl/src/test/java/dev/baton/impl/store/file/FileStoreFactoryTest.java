package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockConfigurationException;
import dev.baton.impl.runtime.StoreRegistry;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreContext;
import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code baton.store=file}: found by name; {@code baton.file.directory} checked (and created) at deployment. */
class FileStoreFactoryTest {

    /** One setting, as the runtime hands it to a factory. */
    record Settings(String directory) implements StoreContext {
        @Override
        public String managerName() {
            return "";
        }

        @Override
        public Optional<String> setting(String name) {
            return name.equals("directory") ? Optional.ofNullable(directory) : Optional.empty();
        }

        @Override
        public String settingKey(String name) {
            return "baton.file." + name;
        }

        @Override
        public <T> Optional<T> bean(Class<T> type, Annotation... qualifiers) {
            return Optional.empty();
        }
    }

    private final FileLockStoreFactory factory = new FileLockStoreFactory();
    private Path base;

    @BeforeEach
    void base() throws Exception {
        base = Files.createDirectories(
                Path.of("target", "file-store-factory", UUID.randomUUID().toString()));
    }

    @Test
    void theStoreNamedFileIsFoundByTheRuntime() {
        assertThat(StoreRegistry.factories()).containsKey("file");
        assertThat(StoreRegistry.factories().get("file")).isInstanceOf(FileLockStoreFactory.class);
    }

    @Test
    void aMissingDirectorySettingFailsNamingTheKey() {
        for (String value : new String[] {null, "", "  "}) {
            assertThatThrownBy(() -> factory.validate(new Settings(value)))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.file.directory is required");
        }
    }

    @Test
    void anAbsentDirectoryIsCreatedWithItsParentsAndUsed() {
        Path directory = base.resolve("a/b/locks");

        factory.validate(new Settings(directory.toString()));
        LockStore store = factory.create(new Settings(directory.toString()));

        assertThat(directory).isDirectory();
        assertThat(store.acquire(Acquisition.of("k", "owner-1", 60_000)).isAcquired())
                .isTrue();
        assertThat(store.release("k", "owner-1")).isTrue();
    }

    @Test
    void aFileWhereTheDirectoryShouldBeFailsNamingKeyAndValue() throws Exception {
        Path file = Files.writeString(base.resolve("plain"), "x");

        assertThatThrownBy(() -> factory.validate(new Settings(file.toString())))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.file.directory=" + file)
                .hasMessageContaining("is not a directory");
    }

    @Test
    void aDirectoryThatCannotBeCreatedFailsNamingKeyAndValue() throws Exception {
        Path file = Files.writeString(base.resolve("plain"), "x");
        String below = file.resolve("locks").toString();

        assertThatThrownBy(() -> factory.validate(new Settings(below)))
                .isInstanceOf(LockConfigurationException.class)
                .hasMessageContaining("baton.file.directory=" + below)
                .hasMessageContaining("cannot be created");
    }

    @Test
    void aDirectoryThatCannotBeWrittenFailsNamingKeyAndValue() throws Exception {
        Path readOnly = Files.createDirectories(base.resolve("read-only"));
        assertThat(readOnly.toFile().setWritable(false, false)).isTrue();
        try {
            org.junit.jupiter.api.Assumptions.assumeFalse(
                    Files.isWritable(readOnly), "this user (root?) can write any directory");
            assertThatThrownBy(() -> factory.validate(new Settings(readOnly.toString())))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("baton.file.directory=" + readOnly)
                    .hasMessageContaining("cannot write");
        } finally {
            readOnly.toFile().setWritable(true, false);
        }
    }
}
