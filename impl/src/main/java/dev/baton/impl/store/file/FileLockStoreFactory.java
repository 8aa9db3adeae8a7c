package dev.baton.impl.store.file;

import dev.baton.LockConfigurationException;
import dev.baton.spi.LockStore;
import dev.baton.spi.LockStoreFactory;
import dev.baton.spi.StoreContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * {@code baton.store=file}: a {@link FileLockStore} on the directory {@code baton.file.directory} (required).
 *
 * <p>At deployment the directory is checked and, when it does not exist yet, created with its missing
 * parents, so that a wrong path fails the deployment rather than the first lock: a setting that is missing,
 * not a path, names something that is not a directory, or a directory this process cannot write (or
 * create) is a {@link LockConfigurationException} naming the key and the value.
 */
public final class FileLockStoreFactory implements LockStoreFactory {

    /** The store name. */
    public static final String NAME = "file";

    /** The setting naming the lock directory. */
    public static final String DIRECTORY = "directory";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Set<String>> settingNames() {
        return Optional.of(Set.of(DIRECTORY));
    }

    @Override
    public void validate(StoreContext context) {
        directory(context);
    }

    @Override
    public LockStore create(StoreContext context) {
        return new FileLockStore(directory(context));
    }

    private static Path directory(StoreContext context) {
        String key = context.settingKey(DIRECTORY);
        String value = context.setting(DIRECTORY)
                .map(String::trim)
                .filter(v -> !v.isEmpty())
                .orElseThrow(
                        () -> new LockConfigurationException(key + " is required for baton.store=file: the directory"
                                + " that every process sharing the locks can write"));
        Path path;
        try {
            path = Path.of(value).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new LockConfigurationException(key + "=" + value + " is not a path: " + e.getMessage(), e);
        }
        if (!Files.exists(path)) {
            try {
                Files.createDirectories(path);
            } catch (IOException | SecurityException e) {
                throw new LockConfigurationException(
                        key + "=" + value + ": the directory does not exist and cannot be created (" + e + ")", e);
            }
        }
        if (!Files.isDirectory(path)) {
            throw new LockConfigurationException(key + "=" + value + " is not a directory");
        }
        if (!Files.isWritable(path)) {
            throw new LockConfigurationException(key + "=" + value + " is a directory this process cannot write");
        }
        return path;
    }
}
