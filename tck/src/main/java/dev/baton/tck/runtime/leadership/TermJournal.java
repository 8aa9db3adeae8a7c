package dev.baton.tck.runtime.leadership;

import dev.baton.event.LeadershipGranted;
import dev.baton.event.LeadershipRevoked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The instance's journal, a file of its own under the directory the test named: one tab-separated line per
 * grant, revocation, action and skipped call, with {@link System#nanoTime()} (the server's JVM: one clock for
 * both instances) and the wall clock. Lines are written under {@link #WRITING}, which {@link Relay} holds while
 * it acts, so the file's order is the order in which things happened in this instance.
 *
 * <p>The observers of {@link LeadershipGranted} and {@link LeadershipRevoked} are synchronous: the runtime calls
 * them on its own thread, the revocation before the lock is released.
 */
@ApplicationScoped
public class TermJournal {

    /** Configuration key: the absolute path of the directory of the journals. */
    public static final String DIRECTORY = "dev.baton.tck.leadership.journals";

    /** Configuration key: this instance's name, which names its journal ({@code <name>.journal}). */
    public static final String INSTANCE = "dev.baton.tck.leadership.instance";

    /** The election of {@link Relay}. */
    public static final String ELECTION = "tck-relay";

    /** Held while a line is written, and by {@link Relay} while it acts. */
    static final Object WRITING = new Object();

    /** The token of the term this instance was told it leads (0: none); written under {@link #WRITING}. */
    static long grantedToken;

    /**
     * Read once, at the first line: at shutdown the server may have removed the deployment's files already
     * (Open Liberty deletes the WAR first), and its configuration with them.
     */
    private static volatile Path journal;

    private static volatile String instance;

    void granted(@Observes LeadershipGranted granted) {
        if (!granted.name().equals(ELECTION)) {
            return;
        }
        synchronized (WRITING) {
            grantedToken = granted.token();
            append("granted", granted.token(), System.nanoTime(), "-");
        }
    }

    void revoked(@Observes LeadershipRevoked revoked) {
        if (!revoked.name().equals(ELECTION)) {
            return;
        }
        synchronized (WRITING) {
            grantedToken = 0;
            append(
                    "revoked",
                    revoked.token(),
                    System.nanoTime(),
                    revoked.reason().name());
        }
    }

    /**
     * Appends a line: kind, instance, token, nanoTime, wall clock millis, detail. Callers hold {@link #WRITING}.
     *
     * @param kind {@code granted}, {@code revoked}, {@code acted}, {@code skipped} or {@code unseen}
     * @param token the term's token (0 for none)
     * @param nanos when it happened, by {@link System#nanoTime()}
     * @param detail what the kind needs ({@code acted}: its end in nanoTime; {@code revoked}: the reason)
     */
    static void append(String kind, long token, long nanos, String detail) {
        String line = String.join(
                        "\t",
                        kind,
                        instance(),
                        Long.toString(token),
                        Long.toString(nanos),
                        Long.toString(System.currentTimeMillis()),
                        detail)
                + "\n";
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

    private static String instance() {
        if (instance == null) {
            configure();
        }
        return instance;
    }

    private static Path journal() {
        if (journal == null) {
            configure();
        }
        return journal;
    }

    private static synchronized void configure() {
        var config = ConfigProvider.getConfig(TermJournal.class.getClassLoader());
        String name = config.getValue(INSTANCE, String.class);
        instance = name;
        journal = Path.of(config.getValue(DIRECTORY, String.class)).resolve(name + ".journal");
    }
}
