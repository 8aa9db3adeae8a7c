package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockLostException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A process that is stopped (SIGSTOP: what a long GC pause or a suspended VM looks like from inside)
 * for longer than its lease loses its locks, and the reason says so: the lease ended while the process
 * was not running. No renewal was in flight, so the store is not to blame.
 */
class ProcessPauseTest {

    private static final String HOLDING = "holding";
    private static final String LOST = "lost: ";

    @Test
    void aLockLostDuringAProcessPauseSaysTheProcessWasNotRunning() throws Exception {
        // Fails rather than skips: a test that cannot pause a process must not report green.
        assertThat(new File("/bin/kill").canExecute() || new File("/usr/bin/kill").canExecute())
                .as("kill(1) is needed to stop a process")
                .isTrue();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), PausedHolder.class.getName())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder seen = new StringBuilder();
            String line;
            while ((line = out.readLine()) != null && !line.equals(HOLDING)) {
                seen.append(line).append('\n');
            }
            assertThat(line).as("the child's output:%n%s", seen).isEqualTo(HOLDING);
            Thread.sleep(500); // a few renewals: the lock is healthy before the pause

            signal("STOP", child.pid());
            Thread.sleep(3_000); // three leases
            signal("CONT", child.pid());

            while ((line = out.readLine()) != null && !line.startsWith(LOST)) {
                seen.append(line).append('\n');
            }
            assertThat(line).as("the child's output:%n%s", seen).startsWith(LOST);
            assertThat(line)
                    .contains("this process was not running")
                    .doesNotContain("store is slow")
                    .doesNotContain("renewing failed");
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                .inheritIO()
                .start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0)
                .as("kill -%s %d", signal, pid)
                .isTrue();
    }

    /** The child JVM: holds one lock with a 1 s lease and prints why it was lost. */
    public static final class PausedHolder {

        public static void main(String[] args) throws Exception {
            LockEngine engine = Engines.engine(new MemoryLockStore(), Engines.scheduler(), 1_000, 1_000);
            HeldLock lock = engine.acquire("paused", 1_000, 1_000, true);
            System.out.println(HOLDING);
            System.out.flush();
            LockLostException reason = lock.whenLost().toCompletableFuture().get(5, TimeUnit.MINUTES);
            System.out.println(LOST + reason.getMessage());
            System.out.flush();
            System.exit(0);
        }
    }
}
