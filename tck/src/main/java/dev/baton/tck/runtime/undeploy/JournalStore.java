package dev.baton.tck.runtime.undeploy;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.tck.runtime.support.LockTable;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The deployment's store (an application {@code LockStore} bean): keeps the locks in memory and appends
 * every acquire, renew and release, with its result, to a journal file the test reads from outside the
 * server. The file is named by {@value #JOURNAL} in the deployment's {@code microprofile-config.properties}.
 *
 * <p>The bean has no qualifier: it is the default manager's store, and the manager {@code audit}, which
 * has no store of its own, uses the default manager's store, this bean. The locks live in a static {@link LockTable} (the "backend"),
 * so a bean instance the container creates anew during shutdown still sees them, as a client of a real
 * store would.
 */
@ApplicationScoped
public class JournalStore implements LockStore {

    /** Configuration key: the absolute path of the journal file. */
    public static final String JOURNAL = "dev.baton.tck.undeploy.journal";

    private static final LockTable LOCKS = new LockTable();
    private static final Object WRITING = new Object();
    /**
     * Read from the configuration once, at the first call: at shutdown the server may have removed the
     * deployment's files already (Open Liberty deletes the WAR first), and its configuration with them.
     */
    private static volatile Path journal;

    @Override
    public AcquireResult acquire(Acquisition acquisition) {
        AcquireResult result = LOCKS.acquire(acquisition);
        append(
                "acquire",
                acquisition.key(),
                acquisition.owner(),
                Long.toString(result.isAcquired() ? result.fencingToken() : 0),
                Boolean.toString(result.isAcquired()));
        return result;
    }

    @Override
    public boolean renew(Renewal renewal) {
        boolean renewed = LOCKS.renew(renewal);
        append("renew", renewal.key(), renewal.owner(), "-", Boolean.toString(renewed));
        return renewed;
    }

    @Override
    public boolean release(String key, String owner) {
        boolean released = LOCKS.release(key, owner);
        append("release", key, owner, "-", Boolean.toString(released));
        return released;
    }

    /** One tab-separated line per call: operation, key, owner, token ({@code -} but for acquire), result. */
    private static void append(String operation, String key, String owner, String token, String result) {
        String line = String.join("\t", operation, key, owner, token, result) + "\n";
        synchronized (WRITING) {
            try {
                Files.writeString(
                        journal(),
                        line,
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot append to the journal " + journal(), e);
            }
        }
    }

    private static Path journal() {
        Path file = journal;
        if (file == null) {
            file = Path.of(ConfigProvider.getConfig(JournalStore.class.getClassLoader())
                    .getValue(JOURNAL, String.class));
            journal = file;
        }
        return file;
    }
}
