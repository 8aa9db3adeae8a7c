package dev.baton.tck.runtime.transactions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.TckExclusions;
import dev.baton.tck.TckRule;
import dev.baton.tck.runtime.Http;
import dev.baton.tck.runtime.RuntimeTck;
import java.net.URL;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JPA store configured by one line, {@code baton.jpa.data-source=java:comp/DefaultDataSource} (the
 * server's JTA data source, the counter rows in the same database): its statements run outside the caller's
 * transaction. A connection of a JTA data source taken inside a transaction is enlisted in it; were the
 * store's statements run on one, the store's own commit would be refused there, and, where not, its lock row
 * would stay uncommitted and row-locked until the caller ends: each test below then fails.
 */
@ExtendWith({TckExclusions.class, ArquillianExtension.class})
@Tag(RuntimeTck.TAG_TRANSACTIONS)
@Tag(RuntimeTck.TAG_JPA_DATA_SOURCE)
class DataSourceStoreTransactionsTest {

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return RuntimeTck.withJpaStore(
                RuntimeTck.scenario("baton-tck-jpa-data-source")
                        .addClasses(
                                Counter.class,
                                Counters.class,
                                DataSourceReads.class,
                                DataSourceResource.class,
                                DataSourceWork.class)
                        .addAsResource(Counter.class.getPackage(), "persistence.xml", "META-INF/persistence.xml"),
                "baton.renew-interval",
                "100ms",
                "baton.admin.force-release",
                "true");
    }

    /**
     * The lock is freed by force under its holder (the store's row released, as when another instance took an
     * expired lease): the holder's renewal notices, and its transaction cannot commit.
     */
    @Test
    @TckRule(id = "R-5.1-04", spec = "spec-runtime-loss-rollback")
    void aLockLostBeforeTheCommitRollsTheTransactionBack() {
        Http.Response write = Http.post(base, "api/jpa/lost/doomed");
        assertThat(write.status()).as(write.body()).isEqualTo(200);
        assertThat(write.body()).as("the commit of a holder that lost its lock").startsWith("rolled back");
        assertThat(Http.getBody(base, "api/jpa/counter/doomed"))
                .as("nothing the holder wrote is kept")
                .isEqualTo("0");
    }

    /**
     * A lock taken inside a transaction that is then rolled back stays taken: the store still shows it held
     * with its token, and the key's next acquisition gets a greater token. Were the lock's row written in the
     * caller's transaction, the rollback would take it away (the store would show the key free) — or the
     * store's commit on the enlisted connection would fail the acquisition.
     */
    @Test
    @TckRule(id = "R-5.3-06", spec = "spec-runtime-store-outside-transaction")
    void aCallersRollbackDoesNotUndoAnAcquisition() {
        Http.Response response = Http.post(base, "api/jpa/rollback?key=rolled-back&name=rolled-back");
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        Map<String, String> answer = pairs(response.body());
        long token = Long.parseLong(answer.get("token"));

        assertThat(answer.get("counter"))
                .as("the caller's write was rolled back")
                .isEqualTo("0");
        assertThat(answer.get("held")).as("the lock, after the rollback").isEqualTo("true");
        assertThat(Long.parseLong(answer.get("holder")))
                .as("the holder's token the store shows after the rollback")
                .isEqualTo(token);
        assertThat(answer.get("released")).as("the release after the rollback").isEqualTo("true");
        assertThat(Long.parseLong(answer.get("next")))
                .as("the next acquisition's token")
                .isGreaterThan(token);
    }

    /**
     * A caller's transaction that has written a row and taken key A stays open, blocked until another request is
     * done: that request takes and releases key B, sees A held with the holder's token, and is refused A at once.
     * Were the store's statements run in the open transaction, A's row would be uncommitted (the store would
     * show A free) and row-locked (the try for A would wait for the holder's commit, which waits for the probe:
     * it fails by the store's statement timeout). After the commit A is free, with a greater token.
     */
    @Test
    @TckRule(id = "R-5.3-07", spec = "spec-runtime-store-outside-transaction")
    void aCallersLongTransactionDoesNotDelayAnotherAcquisition() throws Exception {
        CompletableFuture<Http.Response> holder =
                CompletableFuture.supplyAsync(() -> Http.post(base, "api/jpa/long/hold?key=long-a"));
        Http.Response probe = Http.post(base, "api/jpa/long/probe?a=long-a&b=long-b");
        Http.Response held =
                holder.get(RuntimeTck.scaled(Duration.ofSeconds(90)).toMillis(), TimeUnit.MILLISECONDS);

        assertThat(probe.status()).as(probe.body()).isEqualTo(200);
        assertThat(held.status()).as(held.body()).isEqualTo(200);
        assertThat(held.body()).as("the holder's transaction").startsWith("token=");
        Map<String, String> answer = pairs(probe.body());
        assertThat(answer).as(probe.body()).containsKeys("holding", "b", "holder", "a-taken");
        long token = Long.parseLong(pairs(held.body()).get("token"));

        assertThat(Long.parseLong(answer.get("holding"))).isEqualTo(token);
        assertThat(Long.parseLong(answer.get("b")))
                .as("B, taken while A's holder is open")
                .isPositive();
        assertThat(Long.parseLong(answer.get("holder")))
                .as("A's holder the store shows while its transaction is open")
                .isEqualTo(token);
        assertThat(answer.get("a-taken")).as("A, tried while held").isEqualTo("false");
        assertThat(Long.parseLong(Http.post(base, "api/jpa/acquire?key=long-a").body()))
                .as("A's next acquisition, after the holder's commit")
                .isGreaterThan(token);
    }

    private static Map<String, String> pairs(String body) {
        if (!body.contains("=") || body.startsWith("failed")) {
            throw new AssertionError(body);
        }
        return Arrays.stream(body.split(","))
                .map(pair -> pair.split("=", 2))
                .collect(Collectors.toMap(pair -> pair[0], pair -> pair[1]));
    }
}
