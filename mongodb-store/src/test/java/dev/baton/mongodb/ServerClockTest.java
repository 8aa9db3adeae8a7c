package dev.baton.mongodb;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoCollection;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.baton.mongodb.testing.TestMongo;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Renewal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.UUID;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * Expiry follows the server's clock, not the client's. The in-process server cannot show it with two clocks: it
 * takes {@code $$NOW} and {@code $currentDate} from the JVM's clock, which it shares with the client (the
 * {@code Clock} of its backend only feeds {@code isMaster}'s {@code localTime}). So the test shows the two halves: the
 * store's classes never read the wall clock (only {@code System.nanoTime()}, for the bounds of its calls), and the
 * lease is the one the document's server-written start gives against the server's now: a start moved by an hour
 * moves the expiry by an hour, whatever the client's clock says.
 */
class ServerClockTest {

    private static final String COLLECTION = "clock";

    @Test
    void theStoresClassesNeverReadTheWallClock() {
        noClasses()
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                        com.tngtech.archunit.base.DescribedPredicate.describe(
                                "now() of java.time",
                                target -> target.getName().equals("now")
                                        && (target.getOwner().isEquivalentTo(Instant.class)
                                                || target.getOwner().isEquivalentTo(LocalDateTime.class)
                                                || target.getOwner().isEquivalentTo(OffsetDateTime.class)
                                                || target.getOwner().isEquivalentTo(ZonedDateTime.class)))))
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Clock.class)
                .orShould()
                .callConstructor(Date.class)
                .because("expiry is decided by the server's clock ($currentDate, $$NOW) alone")
                .check(new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.baton.mongodb"));
    }

    @Test
    void theLeaseRunsFromTheServerWrittenStartAgainstTheServersNow() {
        MongoCollection<Document> documents = TestMongo.collection(COLLECTION);
        String key = "clock:" + UUID.randomUUID();
        try (MongoLockStore store = TestMongo.store(COLLECTION)) {
            assertThat(store.acquire(Acquisition.of(key, "holder", 60_000)).isAcquired())
                    .isTrue();
            Date start = documents.find(new Document("_id", key)).first().getDate("s");

            // the server's start an hour later (as a server clock an hour ahead would have written it): a 60 s
            // lease then has an hour and a minute left by the server's now
            documents.updateOne(
                    new Document("_id", key), new Document("$set", new Document("s", shifted(start, 3_600_000))));
            Holder holder = store.inspect(key).orElseThrow();
            assertThat(holder.remainingLeaseMillis()).isBetween(3_600_000L, 3_660_000L);

            // and an hour earlier: the lease is over by the server's now, though only just taken by the client's
            documents.updateOne(
                    new Document("_id", key), new Document("$set", new Document("s", shifted(start, -3_600_000))));
            assertThat(store.inspect(key)).isEmpty();
            assertThat(store.renew(Renewal.of(key, "holder", 60_000)))
                    .as("an expired lock is not renewed")
                    .isFalse();
            assertThat(store.acquire(Acquisition.of(key, "next", 60_000)).isAcquired())
                    .as("another owner takes it at once")
                    .isTrue();
        }
    }

    /** A date {@code millis} from {@code date}: from the server's own date, never the test's clock. */
    private static Date shifted(Date date, long millis) {
        return new Date(date.getTime() + millis);
    }
}
