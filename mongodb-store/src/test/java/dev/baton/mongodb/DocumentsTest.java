package dev.baton.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import dev.baton.mongodb.internal.LockDocuments;
import dev.baton.mongodb.testing.TestMongo;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * The documents the store keeps: deleted from outside (as the TTL index deletes them) they do not let a key's token go
 * back; the TTL indexes are made once, at the first operation, with the ages the store relies on; and each document
 * ages from the field that matches its lease.
 */
class DocumentsTest {

    private static final String COLLECTION = "documents";

    private final MongoCollection<Document> documents = TestMongo.collection(COLLECTION);

    @Test
    void aDeletedDocumentDoesNotLetTheTokenGoBack() {
        String key = "deleted:" + UUID.randomUUID();
        List<Long> tokens = new ArrayList<>();
        try (MongoLockStore store = TestMongo.store(COLLECTION)) {
            for (int round = 0; round < 50; round++) {
                String owner = "owner-" + round;
                tokens.add(store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken());
                switch (round % 3) {
                    case 0 -> documents.deleteOne(new Document("_id", key)); // a live lock's, by hand
                    case 1 -> {
                        assertThat(store.release(key, owner)).isTrue();
                        documents.deleteOne(new Document("_id", key)); // a released key's, as the TTL index does
                    }
                    default -> assertThat(store.release(key, owner)).isTrue(); // kept
                }
            }
        }
        for (int i = 1; i < tokens.size(); i++) {
            assertThat(tokens.get(i))
                    .as("token #%d, after a document that was deleted or released", i + 1)
                    .isGreaterThan(tokens.get(i - 1));
        }
    }

    @Test
    void theTtlIndexesAreMadeAtTheFirstOperationOnceWithTheAgesTheStoreNeeds() {
        String collection = "indexes_" + UUID.randomUUID().toString().replace("-", "");
        try (MongoLockStore first = TestMongo.store(collection);
                MongoLockStore second = TestMongo.store(collection)) {
            assertThat(TestMongo.collection(collection).listIndexes().into(new ArrayList<>()))
                    .as("no index before the first operation: building a store does not connect")
                    .isEmpty();
            assertThat(first.acquire(Acquisition.of("k", "first", 60_000)).isAcquired())
                    .isTrue();
            assertThat(second.acquire(Acquisition.of("k", "second", 60_000)).isAcquired())
                    .as("a second store on the same collection: its index creation changes nothing")
                    .isFalse();
        }
        Map<String, Document> indexes = TestMongo.collection(collection).listIndexes().into(new ArrayList<>()).stream()
                .collect(Collectors.toMap(index -> index.getString("name"), index -> index));
        assertThat(indexes).containsKeys(LockDocuments.KEEP_SHORT_INDEX, LockDocuments.KEEP_LONG_INDEX);
        assertThat(indexes.get(LockDocuments.KEEP_SHORT_INDEX).get("key", Document.class))
                .isEqualTo(new Document(LockDocuments.KEEP_SHORT, 1));
        assertThat(((Number) indexes.get(LockDocuments.KEEP_SHORT_INDEX).get("expireAfterSeconds")).longValue())
                .as("a short lease's record outlives the lease by almost a day at least")
                .isEqualTo(86_400L)
                .isGreaterThan(LockDocuments.SHORT_LEASE_MILLIS / 1000);
        assertThat(indexes.get(LockDocuments.KEEP_LONG_INDEX).get("key", Document.class))
                .isEqualTo(new Document(LockDocuments.KEEP_LONG, 1));
        assertThat(((Number) indexes.get(LockDocuments.KEEP_LONG_INDEX).get("expireAfterSeconds")).longValue())
                .as("the longest lease's record outlives it by a day")
                .isEqualTo(LockArguments.MAX_DURATION_MILLIS / 1000 + 86_400L);
    }

    @Test
    void eachDocumentAgesFromTheFieldOfItsLeaseAndAReleasedOneFromItsRelease() {
        String key = "ages:" + UUID.randomUUID();
        try (MongoLockStore store = TestMongo.store(COLLECTION)) {
            store.acquire(Acquisition.of(key, "short", 3_600_000));
            assertThat(document(key)).containsKey("g").doesNotContainKey("h");
            assertThat(store.renew(Renewal.of(key, "short", 3_600_001))).isTrue();
            assertThat(document(key))
                    .as("renewed for longer than an hour")
                    .containsKey("h")
                    .doesNotContainKey("g");
            assertThat(store.release(key, "short")).isTrue();
            assertThat(document(key))
                    .as("released: ages from now, on the short index, and keeps its token fields")
                    .containsKeys("g", "a", "u")
                    .doesNotContainKeys("h", "o");
            store.acquire(Acquisition.of(key, "long", LockArguments.MAX_DURATION_MILLIS));
            assertThat(document(key)).containsKey("h").doesNotContainKey("g");
        }
    }

    private Document document(String key) {
        return documents.find(new Document("_id", key)).first();
    }
}
