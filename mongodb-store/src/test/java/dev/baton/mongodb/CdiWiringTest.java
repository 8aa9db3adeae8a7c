package dev.baton.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Lock;
import dev.baton.Locks;
import dev.baton.impl.cdi.BatonExtension;
import dev.baton.mongodb.testing.TestMongo;
import io.smallrye.config.inject.ConfigExtension;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.bson.Document;
import org.jboss.weld.junit5.auto.AddExtensions;
import org.jboss.weld.junit5.auto.EnableAutoWeld;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end in Weld SE: {@code baton.store=mongodb} and {@code baton.mongodb.*} from MicroProfile Config (the store
 * found through its factory's service file), and the runtime's {@link Locks} on top; the lock is a document of the
 * configured collection, whose token fields give the lock's fencing token.
 */
@EnableAutoWeld
@AddExtensions({BatonExtension.class, ConfigExtension.class})
class CdiWiringTest {

    static final String COLLECTION = "cdi_" + UUID.randomUUID().toString().replace("-", "");

    @Inject
    Locks locks;

    /** Read by the application's default MicroProfile Config, whose sources include the system properties. */
    static final Map<String, String> SETTINGS = Map.of(
            "baton.store",
            "mongodb",
            "baton.mongodb.url",
            TestMongo.url() + "/" + TestMongo.DATABASE,
            "baton.mongodb.collection",
            COLLECTION,
            "baton.mongodb.operation-timeout",
            "3s");

    @BeforeAll
    static void configure() {
        SETTINGS.forEach(System::setProperty);
    }

    @AfterAll
    static void unconfigure() {
        SETTINGS.keySet().forEach(System::clearProperty);
    }

    @Test
    void locksLiveInMongoDb() {
        String key = "cdi:" + UUID.randomUUID();
        long token;
        try (Lock lock = locks.acquire(key)) {
            token = lock.fencingToken();
            assertThat(lock.isHeld()).isTrue();
            Document document = TestMongo.collection(COLLECTION)
                    .find(new Document("_id", key))
                    .first();
            assertThat(document).as("the key's document").isNotNull();
            assertThat(document.getString("o")).as("its owner token").isNotEmpty();
            assertThat(document.getDate("a").getTime() * 1000 + ((Number) document.get("u")).longValue())
                    .as("its token fields: the lock's token")
                    .isEqualTo(token);
            assertThat(CompletableFuture.supplyAsync(() -> locks.tryAcquire(key))
                            .join())
                    .as("another thread does not get it")
                    .isEmpty();
        }
        assertThat(TestMongo.collection(COLLECTION)
                        .find(new Document("_id", key))
                        .first())
                .as("released: the document stays, without an owner, for the token")
                .isNotNull()
                .doesNotContainKey("o");
        try (Lock again = locks.tryAcquire(key).orElseThrow()) {
            assertThat(again.fencingToken()).isGreaterThan(token);
        }
    }
}
