package dev.baton.bench;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import org.bson.Document;

/**
 * The MongoDB baseline: a client of its own; acquire inserts the key's document (a duplicate key: someone has it),
 * release deletes it if it is the owner's. No lease, no token: the store does more per call (a filter on the
 * server's clock, a token drawn in the same update, a document kept for its token).
 */
final class RawMongo implements RawClient {

    private final MongoClient client;
    private final MongoCollection<Document> collection;

    private RawMongo(MongoClient client) {
        this.client = client;
        this.collection = client.getDatabase("bench").getCollection("bench_raw");
    }

    static RawMongo open(String url) {
        return new RawMongo(MongoClients.create(url));
    }

    @Override
    public boolean acquire(String key, String owner, long ttlMillis) {
        try {
            collection.insertOne(new Document("_id", key).append("o", owner));
            return true;
        } catch (MongoWriteException e) {
            if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public boolean release(String key, String owner) {
        return collection
                        .deleteOne(Filters.and(Filters.eq("_id", key), Filters.eq("o", owner)))
                        .getDeletedCount()
                == 1;
    }

    @Override
    public void close() {
        client.close();
    }
}
