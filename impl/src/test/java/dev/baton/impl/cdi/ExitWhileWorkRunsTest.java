package dev.baton.impl.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.Synchronized;
import dev.baton.impl.testing.Deployments;
import dev.baton.impl.testing.FileLockStore;
import dev.baton.impl.testing.TestConfig;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM terminated (SIGTERM) while work still runs under its locks must not let another process take
 * those locks while that work may still write. The child holds two locks whose work is running: one
 * {@code @Synchronized} method that never stops by itself, and one {@code callWithLock} body that stops
 * soon after it is told its lock is lost. An ordinary shutdown hook of the application (200 ms) keeps the
 * JVM alive meanwhile, and with it the workers. This process, the observer, tries to take both keys from
 * the moment of the SIGTERM on, through a store the two processes share (a file), and every store
 * decision and every write of the workers go to one journal in the order they happened.
 *
 * <p>Expected: both holders are told (their {@code whenLost()} fires, naming the shutdown); the polite
 * one is released by its owner once its work has ended; the stubborn one, still running at the end of
 * the grace period, is not released but left to expire; and no write of either worker comes after the
 * observer took its key.
 */
class ExitWhileWorkRunsTest {

    static final String STUBBORN = "exit:stubborn";
    static final String POLITE = "exit:polite";
    static final String WORKING = "both workers inside their critical sections";

    @Test
    void noOtherProcessTakesALockWhileItsWorkStillRunsAtExit(@TempDir Path directory) throws Exception {
        Path data = directory.resolve("locks");
        Path journal = directory.resolve("journal");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        // as in Helidon MP: Weld's own hook off, so only Baton's exit hook stops the locks
                        "-Dorg.jboss.weld.se.shutdownHook=false",
                        WorkingApplication.class.getName(),
                        data.toString(),
                        journal.toString())
                .redirectErrorStream(true)
                .start();
        StringBuilder seen = new StringBuilder();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals(WORKING)) {
                seen.append(line).append('\n');
            }
            assertThat(line).as("the child's output:%n%s", seen).isEqualTo(WORKING);
            Thread outputReader = new Thread(() -> out.lines().forEach(l -> {
                synchronized (seen) {
                    seen.append(l).append('\n');
                }
            }));
            outputReader.setDaemon(true);
            outputReader.start();

            child.destroy(); // SIGTERM
            FileLockStore observer = new FileLockStore(data, journal);
            Set<String> taken = new HashSet<>();
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (taken.size() < 2 && System.nanoTime() < giveUp) {
                for (String key : List.of(POLITE, STUBBORN)) {
                    if (!taken.contains(key)
                            && observer.acquire(Acquisition.of(key, "observer", 60_000))
                                    .isAcquired()) {
                        taken.add(key);
                    }
                }
                Thread.sleep(2);
            }
            assertThat(child.waitFor(30, TimeUnit.SECONDS))
                    .as("the child exits on SIGTERM")
                    .isTrue();
            assertThat(taken)
                    .as("the observer takes both keys in the end; journal:%n%s", Files.readString(journal))
                    .containsExactlyInAnyOrder(POLITE, STUBBORN);
        } finally {
            child.destroyForcibly();
        }

        List<String> calls = Files.readAllLines(journal);
        String report = String.join(
                "\n", calls.stream().filter(l -> !l.startsWith("renew ")).toList());
        for (String key : List.of(POLITE, STUBBORN)) {
            int observerTook = calls.indexOf("acquire " + key + " observer true");
            int lastWrite = lastIndexOfPrefix(calls, "write " + key + " ");
            assertThat(lastWrite).as("%s was written under its lock", key).isPositive();
            assertThat(lastWrite)
                    .as("the last write under %s comes before another process took it; journal:%n%s", key, report)
                    .isLessThan(observerTook);
            assertThat(calls)
                    .as("the holder of %s was told it is lost; child output:%n%s", key, seen)
                    .anySatisfy(
                            l -> assertThat(l).startsWith("lost " + key + " ").contains("shutting down"));
        }
        int politeReleased = indexOfMatch(calls, "release " + POLITE + " ", " true");
        assertThat(politeReleased)
                .as("the polite lock is released by its owner once its work ended; journal:%n%s", report)
                .isPositive()
                .isGreaterThan(lastIndexOfPrefix(calls, "write " + POLITE + " "));
        assertThat(indexOfMatch(calls, "release " + STUBBORN + " ", " true"))
                .as("the stubborn lock, whose work still ran, is not released: it expires; journal:%n%s", report)
                .isNegative();
    }

    private static int lastIndexOfPrefix(List<String> lines, String prefix) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOfMatch(List<String> lines, String prefix, String suffix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix) && lines.get(i).endsWith(suffix)) {
                return i;
            }
        }
        return -1;
    }

    /** The child JVM: two workers inside their critical sections until the JVM stops. */
    public static final class WorkingApplication {

        static Path data;
        static Path journal;

        public static void main(String[] args) throws Exception {
            data = Path.of(args[0]);
            journal = Path.of(args[1]);
            TestConfig.install("baton.ttl=3s", "baton.shutdown-grace=2s");
            // An ordinary shutdown hook of the application: it keeps the JVM (and the workers) alive 200 ms.
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    Thread.sleep(200);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            },
                            "application-hook"));
            WeldContainer container = Deployments.weld(SharedFileStore.class, StubbornWorker.class)
                    .initialize();
            Locks locks = container.select(Locks.class).get();
            StubbornWorker stubborn = container.select(StubbornWorker.class).get();

            CountDownLatch working = new CountDownLatch(2);
            Thread first = new Thread(() -> stubborn.work(working), "stubborn-worker");
            Thread second =
                    new Thread(() -> locks.runWithLock(POLITE, lock -> politeWork(lock, working)), "polite-worker");
            first.start();
            second.start();
            working.await();
            System.out.println(WORKING);
            System.out.flush();
            first.join();
            second.join();
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }

        /** Writes until it is told its lock is lost, then finishes its unit of work (20 more writes) and returns. */
        static void politeWork(Lock lock, CountDownLatch working) {
            tellLoss(lock);
            int n = 0;
            write(POLITE, n++);
            working.countDown();
            while (lock.isHeld()) {
                write(POLITE, n++);
                pause();
            }
            for (int i = 0; i < 20; i++) {
                write(POLITE, n++);
                pause();
            }
        }

        static void tellLoss(Lock lock) {
            lock.whenLost()
                    .thenAccept(
                            reason -> FileLockStore.append(journal, "lost " + lock.key() + " " + reason.getMessage()));
        }

        static void write(String key, int n) {
            FileLockStore.append(journal, "write " + key + " " + n);
        }

        static void pause() {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Writes under its lock until the JVM stops. */
    @ApplicationScoped
    public static class StubbornWorker {

        @Inject
        Locks locks;

        @Synchronized(STUBBORN)
        public void work(CountDownLatch working) {
            Lock lock = locks.current().orElseThrow();
            WorkingApplication.tellLoss(lock);
            int n = 0;
            WorkingApplication.write(STUBBORN, n++);
            working.countDown();
            while (true) {
                WorkingApplication.write(STUBBORN, n++);
                WorkingApplication.pause();
            }
        }
    }

    /** The store the child and this process share. */
    public static class SharedFileStore {

        @Produces
        @Singleton
        LockStore store() {
            return new FileLockStore(WorkingApplication.data, WorkingApplication.journal);
        }
    }
}
