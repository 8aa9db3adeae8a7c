package dev.baton.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.LockStoreException;
import dev.baton.mongodb.testing.TestMongo;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Renewal;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * The store's connection: lazy, bounded, recovering by itself, closed once, and never closing the application's
 * client.
 */
class ConnectionTest {

    @Test
    void aServerThatDoesNotAnswerFailsTheCallWithinItsBound() throws Exception {
        // accepts connections and never answers: a server that hangs
        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept());
                    }
                } catch (IOException e) {
                    // closed
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (MongoLockStore store = MongoLockStore.builder("mongodb://127.0.0.1:" + silent.getLocalPort())
                    .operationTimeout(Duration.ofSeconds(2))
                    .build()) {
                long started = System.nanoTime();
                assertThatThrownBy(() -> store.acquire(Acquisition.of("k", "owner", 30_000, 400)))
                        .isInstanceOf(LockStoreException.class)
                        .hasMessageContaining("did not answer")
                        .hasCauseInstanceOf(com.mongodb.MongoTimeoutException.class);
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                        .as("a call bounded by 400 ms")
                        .isLessThan(1_900);
                started = System.nanoTime();
                assertThatThrownBy(() -> store.release("k", "owner")).isInstanceOf(LockStoreException.class);
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
                        .as("a call without a bound: the operation timeout of 2 s")
                        .isBetween(1_500L, 6_000L);
            } finally {
                for (Socket socket : accepted) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void theStoreConnectsAtItsFirstOperationAndRecoversWhenTheServerComesBack() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (MongoLockStore store = MongoLockStore.builder("mongodb://127.0.0.1:" + port + "/recovery")
                .operationTimeout(Duration.ofMillis(800))
                .build()) {
            assertThatThrownBy(() -> store.acquire(Acquisition.of("k", "owner", 30_000)))
                    .as("no server yet")
                    .isInstanceOf(LockStoreException.class);
            MongoServer server = new MongoServer(new MemoryBackend());
            server.bind("127.0.0.1", port);
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                boolean acquired = false;
                while (!acquired) {
                    try {
                        acquired = store.acquire(Acquisition.of("k", "owner", 30_000))
                                .isAcquired();
                    } catch (LockStoreException e) {
                        if (System.nanoTime() > deadline) {
                            throw e;
                        }
                        Thread.sleep(100);
                    }
                }
                assertThat(store.renew(Renewal.of("k", "owner", 30_000))).isTrue();
                assertThat(store.release("k", "owner")).isTrue();
            } finally {
                server.shutdownNow();
            }
        }
    }

    @Test
    void aStoreOnTheApplicationsClientLeavesItOpenAndRefusesWorkAfterClose() {
        String key = "app-client:" + UUID.randomUUID();
        try (MongoClient client = MongoClients.create(TestMongo.url())) {
            MongoLockStore store = MongoLockStore.builder(client)
                    .database(TestMongo.DATABASE)
                    .collection("app_client")
                    .build();
            assertThat(store.acquire(Acquisition.of(key, "owner", 30_000)).isAcquired())
                    .isTrue();
            store.close();
            store.close(); // a second close does nothing
            assertThatThrownBy(() -> store.release(key, "owner"))
                    .isInstanceOf(LockStoreException.class)
                    .hasMessageContaining("closed");
            assertThat(client.getDatabase(TestMongo.DATABASE)
                            .getCollection("app_client")
                            .find(new Document("_id", key))
                            .first())
                    .as("the application's client still works, and the lock is still held")
                    .containsEntry("o", "owner");
        }
    }
}
