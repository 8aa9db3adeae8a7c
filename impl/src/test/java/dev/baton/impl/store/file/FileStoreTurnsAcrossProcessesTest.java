package dev.baton.impl.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Turn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * Waiting turns and release notifications of the file store between processes: the turn lives in the lock file, so
 * a process that did not wait cannot take a freed key from the waiter of another process whose turn it is; and a
 * release in another process reaches this JVM's listeners through the directory's watch service, while renewals
 * and acquisitions, which do not free the key, do not. Forked JVMs ({@link FileStoreChild}) on one directory under
 * {@code target/}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FileStoreTurnsAcrossProcessesTest {

    /** A key long enough that its lock file's name is a hash, which does not tell the key. */
    private static final String LONG_KEY = "report:" + "x".repeat(120);

    private Path directory;
    private Path logs;

    @BeforeEach
    void directory(TestInfo info) throws Exception {
        Path base = Path.of(
                "target", "file-store-turns", info.getTestMethod().orElseThrow().getName() + "-" + UUID.randomUUID());
        directory = Files.createDirectories(base.resolve("locks"));
        logs = base;
    }

    @Test
    void aTurnInTheLockFileKeepsTheFreedKeyForItsWaiterAgainstAnotherProcess() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        Acquisition waiting = new Acquisition("order:7", owner(), 60_000, LockArguments.STORE_BOUND, turn("waiter-1"));
        try (ChildJvm holder =
                ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), "order:7", "60000")) {
            long holderToken = token(holder.line(60));
            AcquireResult claimed = store.acquire(waiting);
            assertThat(claimed.isNextInTurn())
                    .as("the waiter's ask while another process holds the key")
                    .isTrue();

            holder.send("release");
            assertThat(holder.line(30)).isEqualTo("RELEASE true");
            try (ChildJvm other = ChildJvm.start(logs.resolve("other.err"), "try", directory.toString(), "order:7")) {
                assertThat(other.line(60))
                        .as("a process without a turn asks for the freed key while it is kept for the waiter")
                        .isEqualTo("TRY false");
            }
            AcquireResult taken = store.acquire(waiting);
            assertThat(taken.isAcquired()).as("the waiter in turn asks again").isTrue();
            assertThat(taken.fencingToken()).isGreaterThan(holderToken);
        }
    }

    @Test
    void aTurnGivenUpLeavesTheFreedKeyToAnotherProcess() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        Acquisition waiting = new Acquisition("order:8", owner(), 60_000, LockArguments.STORE_BOUND, turn("waiter-2"));
        try (ChildJvm holder =
                ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), "order:8", "60000")) {
            token(holder.line(60));
            assertThat(store.acquire(waiting).isNextInTurn()).isTrue();
            holder.send("release");
            assertThat(holder.line(30)).isEqualTo("RELEASE true");

            assertThat(store.leaveTurn("order:8", "someone-else"))
                    .as("another waiter's leave")
                    .isFalse();
            assertThat(store.leaveTurn("order:8", "waiter-2"))
                    .as("the waiter in turn stops waiting")
                    .isTrue();
            try (ChildJvm other = ChildJvm.start(logs.resolve("other.err"), "try", directory.toString(), "order:8")) {
                assertThat(other.line(60))
                        .as("the freed key, its turn given up")
                        .isEqualTo("TRY true");
            }
        }
    }

    @Test
    void aReleaseInAnotherProcessIsToldHereAndItsAcquisitionAndRenewalAreNot() throws Exception {
        FileLockStore store = new FileLockStore(directory);
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        // This JVM asks for the long key first, as a waiter would, so that it knows the key of its hashed name.
        assertThat(store.acquire(Acquisition.of(LONG_KEY, owner(), 1)).isAcquired())
                .isTrue();
        try (AutoCloseable subscription = store.onRelease(heard::add);
                ChildJvm holder =
                        ChildJvm.start(logs.resolve("holder.err"), "hold", directory.toString(), "job", "60000");
                ChildJvm longHolder =
                        ChildJvm.start(logs.resolve("long.err"), "hold", directory.toString(), LONG_KEY, "60000")) {
            token(holder.line(60));
            token(longHolder.line(60));
            holder.send("renew 60000");
            assertThat(holder.line(30)).isEqualTo("RENEW true");
            assertThat(heard.poll(500, TimeUnit.MILLISECONDS))
                    .as("told after two acquisitions and a renewal, which free nothing")
                    .isNull();

            // Only a release somebody waits for in turn is told (the store contract with WAITING_TURNS).
            assertThat(store.acquire(inTurn("job")).isNextInTurn()).isTrue();
            assertThat(store.acquire(inTurn(LONG_KEY)).isNextInTurn()).isTrue();
            holder.send("release");
            assertThat(holder.line(30)).isEqualTo("RELEASE true");
            assertThat(heard.poll(10, TimeUnit.SECONDS))
                    .as("the release of another process")
                    .isEqualTo("job");
            longHolder.send("release");
            assertThat(longHolder.line(30)).isEqualTo("RELEASE true");
            assertThat(heard.poll(10, TimeUnit.SECONDS))
                    .as("the release of a key with a hashed file name this JVM asked for")
                    .isEqualTo(LONG_KEY);

            subscription.close();
            try (ChildJvm again =
                    ChildJvm.start(logs.resolve("again.err"), "hold", directory.toString(), "job", "60000")) {
                token(again.line(60));
                assertThat(store.acquire(inTurn("job")).isNextInTurn()).isTrue();
                again.send("release");
                assertThat(again.line(30)).isEqualTo("RELEASE true");
            }
            assertThat(heard.poll(500, TimeUnit.MILLISECONDS))
                    .as("told after the subscription was closed")
                    .isNull();
        }
    }

    /** A waiter's ask with its turn, as a waiting runtime sends it. */
    private static Acquisition inTurn(String key) {
        return new Acquisition(key, owner(), 60_000, LockArguments.STORE_BOUND, turn(owner()));
    }

    private static Turn turn(String waiter) {
        return new Turn(waiter, 100, 30_000);
    }

    private static long token(String acquiredLine) {
        assertThat(acquiredLine).startsWith("ACQUIRED ");
        return Long.parseLong(acquiredLine.substring("ACQUIRED ".length()));
    }

    private static String owner() {
        return UUID.randomUUID().toString();
    }
}
