package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that exits (SIGTERM) while CDI is still running — Java SE without the container's shutdown
 * hook, or Helidon MP when the signal arrives before its startup finished — still tells the holders
 * (the runtime's own exit hook), and releases the locks they give back.
 */
class ReleaseAtExitTest {

    @Test
    void locksHeldWhenTheJvmIsTerminatedAreReleased(@TempDir Path directory) throws Exception {
        Path journal = directory.resolve("journal");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        // as in Helidon MP: Weld's own hook off, so nothing but Baton stops the locks
                        "-Dorg.jboss.weld.se.shutdownHook=false",
                        ExitingApplication.class.getName(),
                        journal.toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            StringBuilder seen = new StringBuilder();
            while ((line = out.readLine()) != null && !line.equals(ExitingApplication.HOLDING)) {
                seen.append(line).append('\n');
            }
            assertThat(line).as("the child's output:%n%s", seen).isEqualTo(ExitingApplication.HOLDING);

            child.destroy(); // SIGTERM
            assertThat(child.waitFor(30, TimeUnit.SECONDS))
                    .as("the child exits on SIGTERM")
                    .isTrue();
        } finally {
            child.destroyForcibly();
        }

        List<String> calls = Files.readAllLines(journal);
        assertThat(calls)
                .contains("acquire exit:one true", "acquire exit:two true")
                .contains("release exit:one true", "release exit:two true");
    }

    /** The child JVM: holds two locks until it is terminated. */
    public static final class ExitingApplication {

        static final String HOLDING = "holding two locks";
        static Path journal;

        public static void main(String[] args) throws Exception {
            journal = Path.of(args[0]);
            TestConfig.install();
            Locks locks = Deployments.weld(JournalStore.class)
                    .initialize()
                    .select(Locks.class)
                    .get();
            for (String key : new String[] {"exit:one", "exit:two"}) {
                Lock lock = locks.acquire(key);
                lock.whenLost().thenRun(lock::close); // given back when Baton says the application stops
            }
            System.out.println(HOLDING);
            System.out.flush();
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }
    }

    /** A memory store that writes each acquire and release to the journal file. */
    public static class JournalStore {

        @Produces
        @Singleton
        LockStore store() {
            MemoryLockStore memory = new MemoryLockStore();
            return new LockStore() {
                @Override
                public AcquireResult acquire(Acquisition acquisition) {
                    AcquireResult result = memory.acquire(acquisition);
                    write("acquire " + acquisition.key() + " " + result.isAcquired());
                    return result;
                }

                @Override
                public boolean renew(Renewal renewal) {
                    return memory.renew(renewal);
                }

                @Override
                public boolean release(String key, String owner) {
                    boolean released = memory.release(key, owner);
                    write("release " + key + " " + released);
                    return released;
                }
            };
        }

        private static synchronized void write(String line) {
            try {
                Files.writeString(
                        ExitingApplication.journal,
                        line + "\n",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND,
                        StandardOpenOption.SYNC);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
