package dev.baton.mongodb.testing;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.mongodb.MongoLockStore;
import java.net.InetSocketAddress;
import org.bson.Document;

/**
 * One in-process server speaking MongoDB's wire protocol (mongo-java-server, memory backend) for the whole test
 * JVM, started at first use, on a free port of the loopback interface.
 */
public final class TestMongo {

    /** The database of the tests' collections. */
    public static final String DATABASE = "baton_test";

    private static MongoServer server;
    private static String url;
    private static MongoClient client;

    private TestMongo() {}

    /** @return the connection string of the running server, which starts at the first call */
    public static synchronized String url() {
        if (server == null) {
            server = new MongoServer(new MemoryBackend());
            server.bind("127.0.0.1", 0);
            InetSocketAddress address = server.getLocalAddress();
            url = "mongodb://127.0.0.1:" + address.getPort();
            Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "test-mongo-stop"));
        }
        return url;
    }

    /**
     * @param collection the collection
     * @return a new store on the server's {@value #DATABASE} database
     */
    public static MongoLockStore store(String collection) {
        return MongoLockStore.builder(url())
                .database(DATABASE)
                .collection(collection)
                .build();
    }

    /**
     * @param collection the collection
     * @return the collection, through a client of the tests (to look at and change documents from outside)
     */
    public static synchronized MongoCollection<Document> collection(String collection) {
        if (client == null) {
            client = MongoClients.create(url());
        }
        return client.getDatabase(DATABASE).getCollection(collection);
    }
}
