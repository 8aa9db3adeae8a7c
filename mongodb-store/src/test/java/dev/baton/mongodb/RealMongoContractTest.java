package dev.baton.mongodb;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.baton.spi.LockStore;
import dev.baton.tck.LockStoreContract;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The TCK's store contract on a real MongoDB (4.2 or later), named by the environment variable {@value #URL}: for
 * example {@code BATON_TEST_MONGODB_URL=mongodb://localhost:27017/baton_test ./mvnw -pl mongodb-store verify}. Without
 * it, this class does not run (JUnit reports it disabled); with it, a server that cannot be reached fails the class
 * at once, never skips it. Every rule's keys are new, so the collection ({@code baton_tck}) need not be emptied.
 */
@EnabledIfEnvironmentVariable(named = RealMongoContractTest.URL, matches = ".*\\S.*")
class RealMongoContractTest extends LockStoreContract {

    static final String URL = "BATON_TEST_MONGODB_URL";

    @BeforeAll
    static void serverAnswers() {
        String url = System.getenv(URL).strip();
        try (MongoClient client = MongoClients.create(url)) {
            Document answer = client.getDatabase("admin")
                    .withTimeout(10, TimeUnit.SECONDS)
                    .runCommand(new Document("ping", 1));
            if (answer.get("ok") == null) {
                throw new AssertionError("the MongoDB at " + URL + " answered ping with " + answer.toJson());
            }
        } catch (RuntimeException e) {
            throw new AssertionError(
                    URL + " is set, but the MongoDB it names cannot be reached or refused: " + e.getMessage(), e);
        }
    }

    @Override
    protected LockStore createStore() {
        return MongoLockStore.builder(System.getenv(URL).strip())
                .collection("baton_tck")
                .build();
    }
}
