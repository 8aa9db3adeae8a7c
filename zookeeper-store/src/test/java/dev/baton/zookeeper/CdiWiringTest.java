package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.zookeeper.testing.TestZooKeeper;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end in Weld SE: {@code baton.store=zookeeper} and {@code baton.zookeeper.*} from MicroProfile Config (the
 * store found through its factory's service file), and the runtime's {@link Locks} on top; the lock is an ephemeral
 * node whose creating transaction is the lock's fencing token.
 */
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class})
class CdiWiringTest {

    static final String ROOT = "/cdi-" + UUID.randomUUID();

    @Inject
    Locks locks;

    /** Read by the application's default MicroProfile Config, whose sources include the system properties. */
    static final Map<String, String> SETTINGS = Map.of(
            "baton.store", "zookeeper",
            "baton.zookeeper.connect", TestZooKeeper.connect(),
            "baton.zookeeper.root", ROOT,
            "baton.zookeeper.session-timeout", "6s",
            "baton.zookeeper.operation-timeout", "3s");

    @BeforeAll
    static void configure() {
        SETTINGS.forEach(System::setProperty);
    }

    @AfterAll
    static void unconfigure() {
        SETTINGS.keySet().forEach(System::clearProperty);
    }

    @Test
    void locksLiveInZooKeeper() throws Exception {
        String key = "cdi:" + UUID.randomUUID();
        long token;
        try (Lock lock = locks.acquire(key)) {
            token = lock.fencingToken();
            assertThat(lock.isHeld()).isTrue();
            Stat stat = new Stat();
            byte[] owner = lockNode(ROOT + "/" + key + "/lock", stat);
            assertThat(owner).as("the lock node's data: the owner token").isNotEmpty();
            assertThat(stat.getEphemeralOwner()).as("an ephemeral node").isNotZero();
            assertThat(stat.getCzxid())
                    .as("the transaction that created it: the token")
                    .isEqualTo(token);
            assertThat(CompletableFuture.supplyAsync(() -> locks.tryAcquire(key))
                            .join())
                    .as("another thread does not get it")
                    .isEmpty();
        }
        try (Lock again = locks.tryAcquire(key).orElseThrow()) {
            assertThat(again.fencingToken()).isGreaterThan(token);
        }
    }

    private static byte[] lockNode(String path, Stat stat) throws Exception {
        ZooKeeper zk = new ZooKeeper(TestZooKeeper.connect(), 6_000, event -> {});
        try {
            for (int i = 0; ; i++) {
                try {
                    return zk.getData(path, false, stat);
                } catch (org.apache.zookeeper.KeeperException.ConnectionLossException e) {
                    if (i == 50) {
                        throw e;
                    }
                    Thread.sleep(100); // still connecting
                }
            }
        } finally {
            zk.close();
        }
    }
}
