package dev.baton.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The example WAR exactly as built ({@code target/orders.war}, named by the system property
 * {@code baton.examples.orders.war}) deploys on a real server and serves its API: a JAX-RS
 * resource, a stateless EJB with a container-managed transaction, JPA on the application's own H2
 * data sources, with the JPA lock store on the same database and a fenced write.
 */
@ExtendWith(ArquillianExtension.class)
@Tag("ejb")
@Tag("transactions")
class OrdersExampleIT {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @Deployment(testable = false)
    static WebArchive orders() {
        String war = System.getProperty("baton.examples.orders.war");
        if (war == null || war.isBlank()) {
            throw new IllegalStateException("set -Dbaton.examples.orders.war=/path/to/orders.war");
        }
        return ShrinkWrap.createFromZipFile(WebArchive.class, new File(war));
    }

    @ArquillianResource
    URL base;

    @Test
    void paymentsAddUpAndTheOrderCanBeRead() throws Exception {
        HttpResponse<String> first = send("POST", "api/orders/it-1/payments?amount=250");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        HttpResponse<String> second = send("POST", "api/orders/it-1/payments?amount=250");
        assertThat(second.statusCode()).as(second.body()).isEqualTo(200);

        HttpResponse<String> order = send("GET", "api/orders/it-1");

        assertThat(order.statusCode()).as(order.body()).isEqualTo(200);
        assertThat(order.body()).contains("\"paidCents\":500").contains("\"payments\":2");
    }

    @Test
    void concurrentPaymentsOfOneOrderLoseNoUpdate() throws Exception {
        int callers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> send("POST", "api/orders/it-concurrent/payments?amount=100")));
            }
            for (Future<HttpResponse<String>> future : futures) {
                HttpResponse<String> response = future.get(120, TimeUnit.SECONDS);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(send("GET", "api/orders/it-concurrent").body())
                .contains("\"paidCents\":600")
                .contains("\"payments\":6");
    }

    @Test
    void shippingABusyOrderIs409AtOnce() throws Exception {
        send("POST", "api/orders/it-busy/payments?amount=100");
        // A slow shipment holds order:it-busy; once the lock table shows the lock held, a second shipment
        // must be refused at once. (Quick shipments fired blindly may win the lock first and make the slow
        // one the 409: the lock row tells when to try.)
        for (int round = 0; round < 5; round++) {
            CompletableFuture<HttpResponse<String>> packing = CompletableFuture.supplyAsync(() -> {
                try {
                    return send("POST", "api/orders/it-busy/shipment?packingMillis=3000");
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            while (!packing.isDone()
                    && !send("GET", "api/orders/it-busy/lock").body().contains("\"held\":true")) {
                Thread.sleep(20);
            }
            HttpResponse<String> second = packing.isDone() ? null : send("POST", "api/orders/it-busy/shipment");
            HttpResponse<String> packed = packing.get(60, TimeUnit.SECONDS);
            assertThat(packed.statusCode()).as(packed.body()).isEqualTo(200);
            if (second != null && second.statusCode() == 409) {
                assertThat(second.body()).contains("order:it-busy");
                return;
            }
        }
        throw new AssertionError("no 409 for a second shipment while the first one packed, in 5 rounds");
    }

    @Test
    void invoiceNumbersCarryGrowingFencingTokensFromTheDatabase() throws Exception {
        send("POST", "api/orders/it-invoice/payments?amount=100");
        long first = token(send("POST", "api/orders/it-invoice/invoice").body());
        long second = token(send("POST", "api/orders/it-invoice/invoice").body());

        assertThat(second).isGreaterThan(first);
        // the fenced write stamped the order with the token
        assertThat(send("GET", "api/orders/it-invoice").body()).contains("\"invoiceToken\":" + second);
        // the lock lives in the JPA store's table, released after the invoice
        HttpResponse<String> lock = send("GET", "api/orders/it-invoice/lock");
        assertThat(lock.statusCode()).as(lock.body()).isEqualTo(200);
        assertThat(lock.body())
                .contains("\"key\":\"order:it-invoice\"")
                .contains("\"token\":" + second)
                .contains("\"held\":false");
        assertThat(send("POST", "api/orders/no-such-order/invoice").statusCode())
                .isEqualTo(404);
    }

    /**
     * The lock store shares the orders' JTA data source ({@code baton.jpa.data-source}) but runs its statements
     * with the caller's transaction suspended: a first payment that is refused rolls back the order it created,
     * not the acquisition of {@code order:<id>}, whose row stays behind with a token, released.
     */
    @Test
    void aRefusedPaymentRollsBackTheOrderButNotTheLock() throws Exception {
        HttpResponse<String> refused = send("POST", "api/orders/it-refused/payments?amount=-5");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("must be positive");

        HttpResponse<String> order = send("GET", "api/orders/it-refused");
        assertThat(order.statusCode())
                .as("the order the refused payment created was rolled back: " + order.body())
                .isEqualTo(404);
        HttpResponse<String> lock = send("GET", "api/orders/it-refused/lock");
        assertThat(lock.statusCode())
                .as("the acquisition was committed on its own, whatever the caller's transaction did: " + lock.body())
                .isEqualTo(200);
        assertThat(lock.body()).contains("\"key\":\"order:it-refused\"").contains("\"held\":false");

        HttpResponse<String> paid = send("POST", "api/orders/it-refused/payments?amount=300");
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
        assertThat(paid.body()).contains("\"paidCents\":300").contains("\"payments\":1");
    }

    private static long token(String invoiceNumber) {
        assertThat(invoiceNumber).startsWith("INV-it-invoice-");
        return Long.parseLong(invoiceNumber.substring(invoiceNumber.lastIndexOf('-') + 1));
    }

    /**
     * The {@code @Exclusive} EJB timer ({@code UnpaidOrders}, every 2 s) runs on this server, guarded by the
     * JPA store, and records one run per planned time in the database; an order created without payment
     * is not cancelled before {@code orders.unpaid.cancel-after} (60 s).
     */
    @Test
    void theExclusiveTimerRunsOncePerPlannedTime() throws Exception {
        HttpResponse<String> created = send("POST", "api/orders/it-unpaid");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        assertThat(created.body()).contains("\"payments\":0").contains("\"cancelled\":false");

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        List<String> runs;
        String body;
        do {
            Thread.sleep(500);
            HttpResponse<String> sweeps = send("GET", "api/sweeps?limit=100");
            assertThat(sweeps.statusCode()).as(sweeps.body()).isEqualTo(200);
            body = sweeps.body();
            runs = body.lines()
                    .filter(line -> !line.isEmpty() && Character.isDigit(line.charAt(0)))
                    .toList();
        } while (runs.size() < 3 && System.nanoTime() - deadline < 0);

        assertThat(runs).as(body).hasSizeGreaterThanOrEqualTo(3).allMatch(line -> line.contains(" runs=1 "));
    }

    @Test
    void anUnknownOrderIs404() throws Exception {
        assertThat(send("GET", "api/orders/no-such-order").statusCode()).isEqualTo(404);
    }

    private HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        URI uri = URI.create(base.toExternalForm().replaceAll("/?$", "/")).resolve(path);
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
