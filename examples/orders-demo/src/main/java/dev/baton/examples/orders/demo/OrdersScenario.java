package dev.baton.examples.orders.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scripted scenario against the orders example's HTTP API ({@code <base>/api/orders/...}): it
 * narrates each step to {@code out}, fails with {@link UnexpectedAnswer} on any answer the example
 * must not give, and returns what it saw.
 */
public final class OrdersScenario {

    /** An answer of the orders API that the scenario did not expect. */
    public static final class UnexpectedAnswer extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnexpectedAnswer(String message) {
            super(message);
        }
    }

    /** One answered payment request: which request it was and the order's state it returned. */
    public record Payment(int request, long payments, long paidCents, String body) {}

    /** What the payments step saw: each answer (sorted by payment count) and the order afterwards. */
    public record Payments(
            long paymentsBefore,
            long paidCentsBefore,
            List<Payment> answers,
            long paymentsAfter,
            long paidCentsAfter) {}

    /** What the shipment step saw: the second shipment's 409 and the slow one's answer. */
    public record Conflict(int status, String body, int slowStatus, String slowBody) {}

    /** Everything the scenario saw. */
    /** What the unpaid-order step saw: the order as created, as cancelled, and the timer's runs per planned time. */
    public record Unpaid(String created, String cancelled, String sweeps) {}

    public record Result(
            Payments payments, Conflict conflict, List<String> invoices, List<Long> fencingTokens, Unpaid unpaid) {}

    private static final Pattern PAYMENTS = Pattern.compile("\"payments\"\\s*:\\s*(\\d+)");
    private static final Pattern PAID = Pattern.compile("\"paidCents\"\\s*:\\s*(\\d+)");

    private final URI base;
    private final PrintStream out;
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /**
     * @param base the application, e.g. {@code http://127.0.0.1:8080/orders/}
     * @param out where the narration goes
     */
    public OrdersScenario(URI base, PrintStream out) {
        this.base = URI.create(base.toString().replaceAll("/?$", "/"));
        this.out = out;
    }

    /**
     * Runs the three steps on one order, then the fourth on a new order {@code <orderId>-unpaid}.
     *
     * @param orderId the order
     * @return what it saw
     * @throws UnexpectedAnswer on an answer the example must not give
     * @throws InterruptedException if interrupted
     */
    public Result run(String orderId) throws InterruptedException {
        Payments payments = concurrentPayments(orderId, 8, 1250);
        Conflict conflict = busyShipment(orderId, 2000);
        List<String> invoices = invoices(orderId, 5);
        List<Long> tokens = invoices.stream()
                .map(number -> Long.parseLong(number.substring(number.lastIndexOf('-') + 1)))
                .toList();
        Unpaid unpaid = unpaidOrderCancelled(orderId + "-unpaid");
        return new Result(payments, conflict, invoices, tokens, unpaid);
    }

    /**
     * Sends {@code callers} payments of one order at once; the EJB's {@code @Synchronized("order:{orderId}")}
     * lets one in at a time, so each answer carries a different payment count and none is lost.
     */
    Payments concurrentPayments(String orderId, int callers, long amountCents) throws InterruptedException {
        HttpResponse<String> before = send("GET", "api/orders/" + orderId);
        expect(before, 200, 404);
        long paymentsBefore = before.statusCode() == 404 ? 0 : number(PAYMENTS, before);
        long paidBefore = before.statusCode() == 404 ? 0 : number(PAID, before);
        say(
                "1. %d concurrent payments of %s on order %s; PaymentService.pay (a stateless EJB) is"
                        + " @Synchronized(\"order:{orderId}\"):",
                callers, money(amountCents), orderId);

        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Payment> answers = new ArrayList<>();
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                sent.add(pool.submit(() -> {
                    go.await();
                    return send("POST", "api/orders/" + orderId + "/payments?amount=" + amountCents);
                }));
            }
            go.countDown();
            for (int i = 0; i < callers; i++) {
                HttpResponse<String> answer = await(sent.get(i), "payment request " + (i + 1));
                expect(answer, 200);
                answers.add(new Payment(i + 1, number(PAYMENTS, answer), number(PAID, answer), answer.body()));
            }
        } finally {
            pool.shutdownNow();
        }
        answers.sort(Comparator.comparingLong(Payment::payments));
        for (Payment payment : answers) {
            say("   request %d -> %s", payment.request(), payment.body());
        }
        List<Long> counts = answers.stream().map(Payment::payments).toList();
        for (int i = 0; i < callers; i++) {
            if (counts.get(i) != paymentsBefore + i + 1) {
                throw new UnexpectedAnswer("the payment counts were " + counts + ", not " + (paymentsBefore + 1) + ".."
                        + (paymentsBefore + callers) + ": two payments read the same order");
            }
        }
        HttpResponse<String> after = send("GET", "api/orders/" + orderId);
        expect(after, 200);
        long paymentsAfter = number(PAYMENTS, after);
        long paidAfter = number(PAID, after);
        if (paymentsAfter != paymentsBefore + callers || paidAfter != paidBefore + callers * amountCents) {
            throw new UnexpectedAnswer("after " + callers + " payments of " + amountCents + " cents the order is "
                    + after.body() + ": an update was lost");
        }
        say(
                "   GET order %s -> %s: %d payments, %s, none lost",
                orderId, after.body(), paymentsAfter, money(paidAfter));
        return new Payments(paymentsBefore, paidBefore, List.copyOf(answers), paymentsAfter, paidAfter);
    }

    /**
     * Ships the order slowly (the resource method sleeps {@code packingMillis} while it holds
     * {@code order:<id>}) and meanwhile ships it again: {@code @Synchronized(await = false)} answers
     * 409 Conflict at once. If the second shipment happens to get the lock first, the round is repeated.
     */
    Conflict busyShipment(String orderId, long packingMillis) throws InterruptedException {
        say(
                "2. A slow shipment of order %s packs for %.1f s while holding order:%s; a second shipment,"
                        + " @Synchronized(await = false), does not wait:",
                orderId, packingMillis / 1000.0, orderId);
        for (int round = 1; round <= 5; round++) {
            CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(() -> {
                try {
                    return send("POST", "api/orders/" + orderId + "/shipment?packingMillis=" + packingMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(300);
            HttpResponse<String> conflict = null;
            while (conflict == null && !slow.isDone()) {
                HttpResponse<String> second = send("POST", "api/orders/" + orderId + "/shipment");
                expect(second, 200, 409);
                if (second.statusCode() == 409) {
                    conflict = second;
                } else {
                    Thread.sleep(100);
                }
            }
            HttpResponse<String> packed = await(slow, "the slow shipment");
            expect(packed, 200, 409);
            if (conflict != null) {
                expect(packed, 200);
                say("   second shipment -> %d Conflict %s", conflict.statusCode(), conflict.body());
                say("   slow shipment   -> %d %s", packed.statusCode(), packed.body());
                return new Conflict(conflict.statusCode(), conflict.body(), packed.statusCode(), packed.body());
            }
            say("   (round %d: the second shipment got the lock first; again)", round);
        }
        throw new UnexpectedAnswer(
                "no 409 Conflict for a second shipment of order " + orderId + " while a slow one packed, in 5 rounds");
    }

    /** Issues invoices one after another; each number ends with its lock's fencing token, which only grows. */
    List<String> invoices(String orderId, int count) throws InterruptedException {
        say(
                "3. %d invoices of order %s, each issued under Locks.callWithLock(\"order:%s\"); the number ends"
                        + " with the lock's fencing token, written to the order by a fenced UPDATE:",
                count, orderId, orderId);
        Pattern number = Pattern.compile("INV-" + Pattern.quote(orderId) + "-(\\d+)");
        List<String> invoices = new ArrayList<>();
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            HttpResponse<String> answer = send("POST", "api/orders/" + orderId + "/invoice");
            expect(answer, 200);
            String invoice = answer.body().trim();
            Matcher matcher = number.matcher(invoice);
            if (!matcher.matches()) {
                throw new UnexpectedAnswer("invoice number " + invoice + " is not INV-" + orderId + "-<token>");
            }
            long token = Long.parseLong(matcher.group(1));
            if (token <= previous) {
                throw new UnexpectedAnswer("fencing token " + token + " after " + previous + " in " + invoices + ", "
                        + invoice + ": tokens must strictly increase");
            }
            previous = token;
            invoices.add(invoice);
        }
        say("   %s: tokens strictly increasing", String.join("  ", invoices));
        String order = expect(send("GET", "api/orders/" + orderId), 200).body();
        if (!order.contains("\"invoiceToken\":" + previous)) {
            throw new UnexpectedAnswer(
                    "order " + orderId + " does not carry the last fencing token " + previous + ": " + order);
        }
        String lock =
                expect(send("GET", "api/orders/" + orderId + "/lock"), 200).body();
        if (!lock.contains("\"token\":" + previous)) {
            throw new UnexpectedAnswer(
                    "the lock table's row of order:" + orderId + " is not at token " + previous + ": " + lock);
        }
        if (!lock.contains("\"held\":false")) {
            throw new UnexpectedAnswer("the lock table's row of order:" + orderId + " is still held after the last"
                    + " invoice's transaction committed: " + lock);
        }
        say("   GET order %s -> %s", orderId, order);
        say("   GET order %s/lock -> %s (the JPA store's row, in the WAR's own database)", orderId, lock);
        return List.copyOf(invoices);
    }

    /**
     * Creates an order without paying on it and waits (at most 90 s) until the example's exclusive timer
     * ({@code UnpaidOrders}, {@code @Exclusive @Schedule} every 2 s) cancels it, which it does once the order
     * is older than {@code orders.unpaid.cancel-after} seconds; then shows the timer's runs per planned time.
     */
    Unpaid unpaidOrderCancelled(String orderId) throws InterruptedException {
        String created = expect(send("POST", "api/orders/" + orderId), 200).body();
        if (!created.contains("\"payments\":0") || !created.contains("\"cancelled\":false")) {
            throw new UnexpectedAnswer("a new order is not unpaid and open: " + created);
        }
        say("4. Order %s created without payment -> %s", orderId, created);
        say("   UnpaidOrders.cancelUnpaid, an EJB @Schedule(second = \"*/2\") that is @Exclusive (one instance per"
                + " planned time), cancels it once it is older than orders.unpaid.cancel-after ...");
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(90);
        String order = created;
        while (!order.contains("\"cancelled\":true")) {
            if (System.nanoTime() - deadline > 0) {
                throw new UnexpectedAnswer("order " + orderId + " was not cancelled within 90 s: " + order);
            }
            Thread.sleep(500);
            order = expect(send("GET", "api/orders/" + orderId), 200).body();
        }
        say("   after %d s: %s", (System.nanoTime() - start) / 1_000_000_000, order);
        String sweeps = expect(send("GET", "api/sweeps?limit=5"), 200).body();
        say("   GET sweeps (runs per planned time, epoch seconds, from the database):");
        sweeps.lines().forEach(line -> say("     %s", line));
        return new Unpaid(created, order, sweeps);
    }

    private HttpResponse<String> send(String method, String path) throws InterruptedException {
        URI uri = base.resolve(path);
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(60))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UnexpectedAnswer(method + " " + uri + " failed: " + e);
        }
    }

    private static HttpResponse<String> await(Future<HttpResponse<String>> answer, String what)
            throws InterruptedException {
        try {
            return answer.get(90, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof UnexpectedAnswer unexpected
                    ? unexpected
                    : new UnexpectedAnswer(what + " failed: " + cause);
        } catch (TimeoutException e) {
            throw new UnexpectedAnswer(what + " got no answer in 90 s");
        }
    }

    private static HttpResponse<String> expect(HttpResponse<String> answer, int... statuses) {
        for (int status : statuses) {
            if (answer.statusCode() == status) {
                return answer;
            }
        }
        throw new UnexpectedAnswer(answer.request().method() + " "
                + answer.request().uri() + " answered " + answer.statusCode() + " " + answer.body());
    }

    private static long number(Pattern field, HttpResponse<String> answer) {
        Matcher matcher = field.matcher(answer.body());
        if (!matcher.find()) {
            throw new UnexpectedAnswer(
                    answer.request().method() + " " + answer.request().uri() + " answered " + answer.body()
                            + ", without " + field.pattern().replaceAll("\\\\.*", ""));
        }
        return Long.parseLong(matcher.group(1));
    }

    private static String money(long cents) {
        return String.format(Locale.ROOT, "%d.%02d", cents / 100, cents % 100);
    }

    private void say(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }
}
