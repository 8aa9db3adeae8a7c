package dev.baton.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.zookeeper.testing.TestZooKeeper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A store whose client reaches a server only after others refused it, as on an ensemble still electing its first
 * leader: each refusal fails the calls queued so far ({@code CONNECTIONLOSS}), and the first acquisition of a key under
 * a root that does not exist yet must still make its nodes and take the key. (The retries after such losses once
 * counted against the store's attempts at making the key's node, and the acquisition failed with {@code NONODE}.)
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FirstConnectionTest {

    /** Ports that refused: more of them than servers, so the client meets some before the one that answers. */
    private static final int REFUSING = 8;

    private static final int STORES = 10;

    @Test
    void theFirstAcquisitionSucceedsAfterTheClientWasRefusedByOtherServers() throws Exception {
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < REFUSING; i++) {
            hosts.add("127.0.0.1:" + refusingPort());
        }
        hosts.add(TestZooKeeper.connect());
        String connect = String.join(",", hosts);
        // The client shuffles the servers: over ten new stores, some meet two refusals or more first.
        for (int store = 0; store < STORES; store++) {
            try (ZooKeeperLockStore fresh = ZooKeeperLockStore.builder(connect)
                    .root("/first-connection-" + UUID.randomUUID())
                    .sessionTimeout(Duration.ofSeconds(6))
                    .build()) {
                String key = "first:" + store;
                AcquireResult result = fresh.acquire(Acquisition.of(key, "owner", 30_000, 60_000));
                assertThat(result.isAcquired())
                        .as("store %d's first acquisition", store)
                        .isTrue();
                assertThat(fresh.release(key, "owner"))
                        .as("store %d's release", store)
                        .isTrue();
            }
        }
    }

    /** @return a loopback port that nothing listens on (taken and given back) */
    private static int refusingPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
