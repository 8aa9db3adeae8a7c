package dev.baton.zookeeper.testing;

import dev.baton.zookeeper.ZooKeeperLockStore;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * The tests' ZooKeeper: one real server (Curator's testing server, ZooKeeper 3.9 in this JVM) started at first use
 * and shared by every test class, its data under {@code target/zookeeper}. Its tick is {@value #TICK_MILLIS} ms, so
 * it grants session timeouts from 1 to 10 s: tests of expiry do not wait for a production timeout.
 */
public final class TestZooKeeper {

    /** The server's tick: sessions from 2 to 20 ticks. */
    public static final int TICK_MILLIS = 500;

    private static TestingServer server;

    private TestZooKeeper() {}

    /** @return the shared server, started at first use */
    public static synchronized TestingServer server() {
        if (server == null) {
            server = start(directory("single"));
        }
        return server;
    }

    /** @return the shared server's connect string */
    public static String connect() {
        return server().getConnectString();
    }

    /**
     * A store on the shared server.
     *
     * @param root its root node's name (below {@code /})
     * @return a new store instance
     */
    public static ZooKeeperLockStore store(String root) {
        return ZooKeeperLockStore.builder(connect())
                .root("/" + root)
                .sessionTimeout(Duration.ofSeconds(6))
                .build();
    }

    /**
     * @param name a name for the folder
     * @return a new data folder below {@code target/zookeeper}
     */
    public static File directory(String name) {
        Path base = Path.of(System.getProperty("baton.test.zookeeper.dir", "target/zookeeper"));
        try {
            // the server writes its configuration beside its data folder
            return Files.createDirectories(base.resolve(name + "-" + UUID.randomUUID()))
                    .toFile();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a ZooKeeper data folder below " + base, e);
        }
    }

    /**
     * A server spec with the tests' tick.
     *
     * @param directory its data folder
     * @return the spec: free ports, data deleted on close
     */
    public static InstanceSpec spec(File directory) {
        return new InstanceSpec(directory, -1, -1, -1, true, -1, TICK_MILLIS, -1);
    }

    private static TestingServer start(File directory) {
        try {
            return new TestingServer(spec(directory), true);
        } catch (Exception e) {
            throw new IllegalStateException("the test ZooKeeper server did not start in " + directory, e);
        }
    }
}
